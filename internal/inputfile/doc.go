// Package inputfile reads the files a person names to realdrift — state
// files, corpus cases, cloud assemblies (manifest.json, templates), sandbox
// worlds — the one guarded way.
//
// Rules:
//   - Only a regular file is read (symbolic links followed). A FIFO is
//     never opened (the open would block until a writer came, beyond
//     Ctrl-C), a device such as /dev/zero never read (it would never end),
//     a directory or socket refused: ErrNotRegular, naming the path and
//     what it is.
//   - A file larger than the caller's limit is refused before it is read
//     (and, if it grew since, after reading one byte past the limit):
//     ErrTooLarge, naming the path, its size and the limit.
//   - The file's kind and size are checked again on the opened file, so a
//     path swapped between the check and the open is caught.
//   - Text inputs can be held to valid UTF-8 (UTF8): the first bad byte's
//     offset is named.
package inputfile
