// Package statuswriter records the status code an http.Handler sends;
// the oauth request log and the metrics middleware both read it.
package statuswriter

import "net/http"

// Writer is an http.ResponseWriter that remembers the first status code
// written: the one given to WriteHeader, or 200 on a Write before it.
// Status stays 0 if the handler wrote nothing.
type Writer struct {
	http.ResponseWriter
	Status int
}

func (w *Writer) WriteHeader(code int) {
	if w.Status == 0 {
		w.Status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *Writer) Write(b []byte) (int, error) {
	if w.Status == 0 {
		w.Status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (w *Writer) Unwrap() http.ResponseWriter { return w.ResponseWriter }
