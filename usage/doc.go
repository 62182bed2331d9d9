// Package usage counts the tokens and the cost of agent runs.
//
// A [Counter] reads one run's canonical events and keeps, per model
// message, the tokens the stream reports: input, output, cache write,
// cache read and reasoning, apart. A message is counted once: the usage of
// TurnEnd events that share a message id replaces the one before it (Claude
// repeats a message's usage on each of its content blocks, the last one is
// the most complete); a TurnEnd without a message id is a message of its
// own. An agent whose turns carry no usage at all is counted from its
// RunEnd's cumulative usage instead.
//
// Cost comes from the stream where it says it (RunEnd.CostUSD, else the
// sum of the turns' own costs, TurnEnd.CostUSD: OpenCode's steps), and
// otherwise from a [Prices] table: the one embedded in the binary
// ([Default], prices.json, with the public per-million-token prices of
// Anthropic and OpenAI models and their long-context tiers) or one read
// with [ReadPrices]. A model the table does not know is reported as
// unpriced, never priced at zero. [Report] groups runs by run, model, day
// or agent. docs/usage.md says where each number comes from.
package usage
