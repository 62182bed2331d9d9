package htmlview_test

import (
	"fmt"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render/htmlview"
)

func Example() {
	var b strings.Builder
	w := htmlview.New(&b, htmlview.Options{Title: "run"})
	w.Event(&event.Delta{Agent: "a", Kind: event.Text, Text: "a < b, **bold**"})
	w.Event(&event.BlockEnd{Agent: "a", Kind: event.Text})
	w.Close()
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "<section") {
			fmt.Println(l)
		}
	}
	// Output: <section class="b t-text" id="b1" data-agent="a"><a class="a" href="#b1" aria-label="link to this block">#</a><div class="text"><p>a &lt; b, <strong>bold</strong></p></div></section>
}
