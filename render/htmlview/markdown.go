package htmlview

import (
	"bytes"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// md renders the Markdown of text blocks: CommonMark with GitHub's tables,
// strikethrough, task lists and bare links. goldmark's safe default is
// kept (its renderer is not made Unsafe: no raw HTML is passed through),
// and on top of it (safeRenderer) raw HTML in the text is shown as the
// text it is, escaped, rather than left out: a model writing "use a <div>
// here" means the words. Links and images follow the page's rules.
var md = goldmark.New(
	goldmark.WithExtensions(extension.GFM),
	goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(safeRenderer{}, 0))),
)

// markdown renders s as HTML. goldmark escapes every text and attribute
// it writes; its errors are the writer's, and a bytes.Buffer has none.
func markdown(s string) string {
	var b bytes.Buffer
	if err := md.Convert([]byte(s), &b); err != nil {
		return "<pre>" + esc(s) + "</pre>"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// safeRenderer writes raw HTML as escaped text, and links and images as
// the rest of the page does: a link only to an http or https URL (other
// links keep their text), an image only from a data:image URL (an
// http(s) image is a link, never fetched; another is its text).
type safeRenderer struct{}

func (safeRenderer) RegisterFuncs(r renderer.NodeRendererFuncRegisterer) {
	r.Register(ast.KindLink, renderLink)
	r.Register(ast.KindAutoLink, renderAutoLink)
	r.Register(ast.KindImage, renderImage)
	r.Register(ast.KindRawHTML, renderRawHTML)
	r.Register(ast.KindHTMLBlock, renderHTMLBlock)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			_, _ = w.WriteString(esc(string(seg.Value(source))))
		}
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*ast.HTMLBlock)
	_, _ = w.WriteString(`<pre class="raw">`)
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		_, _ = w.WriteString(esc(string(seg.Value(source))))
	}
	if n.HasClosure() {
		_, _ = w.WriteString(esc(string(n.ClosureLine.Value(source))))
	}
	_, _ = w.WriteString("</pre>\n")
	return ast.WalkSkipChildren, nil
}

func renderLink(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	dest := string(n.Destination)
	if !webURL(dest) {
		return ast.WalkContinue, nil // the text, without a link
	}
	if entering {
		_, _ = w.WriteString(`<a href="` + esc(dest) + `" rel="noopener noreferrer nofollow">`)
	} else {
		_, _ = w.WriteString(`</a>`)
	}
	return ast.WalkContinue, nil
}

func renderAutoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url, label := string(n.URL(source)), string(n.Label(source))
	if n.AutoLinkType == ast.AutoLinkURL && webURL(url) {
		_, _ = w.WriteString(`<a href="` + esc(url) + `" rel="noopener noreferrer nofollow">` + esc(label) + `</a>`)
	} else {
		_, _ = w.WriteString(esc(label))
	}
	return ast.WalkContinue, nil
}

func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	dest := string(n.Destination)
	alt := string(altText(n, source))
	switch {
	case dataImage(dest):
		_, _ = w.WriteString(`<img src="` + esc(dest) + `" alt="` + esc(alt) + `">`)
	case webURL(dest):
		_, _ = w.WriteString(`<a href="` + esc(dest) + `" rel="noopener noreferrer nofollow">` + esc("image (not fetched): "+alt) + `</a>`)
	default:
		_, _ = w.WriteString(esc(alt))
	}
	return ast.WalkSkipChildren, nil
}

// altText is the text of an image's description.
func altText(n ast.Node, source []byte) []byte {
	var b []byte
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		if t, ok := c.(*ast.Text); ok {
			b = append(b, t.Segment.Value(source)...)
		} else {
			b = append(b, altText(c, source)...)
		}
	}
	return b
}
