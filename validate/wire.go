package validate

import "io"

// wireCheckers holds, per format, the checker of the format's wire rules
// that runs beside the GEN rules on the decoder's events. It reads the
// input as the decoder does and reports through its checker. The JSON
// envelope is checked at the wire level alone (checker.jsonenv).
var wireCheckers = map[string]func(v *checker, r io.Reader){}
