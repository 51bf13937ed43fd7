package service

import (
	"context"
	"log/slog"
)

// WithLogger sets the logger every handler writes its one line per
// invocation to (the default is slog.Default, which Lambda sends to
// CloudWatch Logs).
func WithLogger(l *slog.Logger) Option {
	return func(s *Service) { s.log = l }
}

func (s *Service) logger() *slog.Logger {
	if s.log == nil {
		return slog.Default()
	}
	return s.log
}

// logged wraps handler h of function name so each invocation logs once, at
// the function's edge: the function and the outcome. The line never holds
// the payload or the result: a trigger's event may quote request
// parameters, and run state is kept out of the logs like out of the
// payloads; an error's text is the only free text in it.
func logged[In, Out any](s *Service, name string, h func(context.Context, In) (Out, error)) func(context.Context, In) (Out, error) {
	return func(ctx context.Context, in In) (Out, error) {
		out, err := h(ctx, in)
		if err != nil {
			s.logger().ErrorContext(ctx, "realdrift function failed", "function", name, "error", err.Error())
			return out, err
		}
		s.logger().InfoContext(ctx, "realdrift function done", "function", name)
		return out, nil
	}
}
