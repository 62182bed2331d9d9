package eventtest

// Problems returns the problems of items, their texts in order.
func Problems(items []Item) []string {
	var out []string
	for _, it := range items {
		if it.Err != "" {
			out = append(out, it.Err)
		}
	}
	return out
}
