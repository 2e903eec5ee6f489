package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/signet-go/signet/bench/xlang"
)

// readXlang loads the cross-language run's records when the file exists:
// the report then has its section, its targets and its records in
// results.json.
func (r *report) readXlang(log io.Writer) error {
	if r.cfg.xlang == "" {
		return nil
	}
	recs, err := xlang.ReadResults(r.cfg.xlang)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(log, "lab: no cross-language results at %s (make xlang); the report says so\n", r.cfg.xlang)
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", r.cfg.xlang, err)
	}
	r.xlang = recs
	return nil
}

// writeXlang writes the cross-language section and its chart.
func (r *report) writeXlang(b *strings.Builder) error {
	png, svg := "", ""
	ok, err := xlang.WriteChart(filepath.Join(r.cfg.out, "charts"), "xlang", r.xlang)
	if err != nil {
		return err
	}
	if ok {
		png, svg = "charts/xlang.png", "charts/xlang.svg"
	}
	b.WriteString(xlang.Markdown(r.xlang, png, svg))
	return nil
}
