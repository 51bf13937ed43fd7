//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package cli

import (
	"os"
	"syscall"
	"unsafe"
)

// IsTerminal reports whether f is a terminal: the terminal-attributes
// ioctl succeeds on it. A character device that is not a terminal
// (/dev/null), a pipe or a file is not one, so `< /dev/null` in cron or
// systemd is never taken for a person at a keyboard.
func IsTerminal(f *os.File) bool {
	if f == nil {
		return false
	}
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, f.Fd(), ioctlGetTermios, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
