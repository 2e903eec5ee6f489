package main

import (
	"bytes"
	"fmt"
)

// chartsSection embeds the charts (SVG, with the PNG linked).
func (r *report) chartsSection(b *bytes.Buffer, charts []chart) {
	if len(charts) == 0 {
		return
	}
	fmt.Fprintf(b, "## Charts\n\n")
	for _, c := range charts {
		fmt.Fprintf(b, "![%s](%s)\n\n(%s; [PNG](%s))\n\n", c.title, c.svg, c.title, c.png)
	}
}
