// Package usage counts the tokens and the cost of agent runs.
//
// A [Counter] reads one run's canonical events and keeps, per model
// message, the tokens the stream reports: input, output, cache write,
// cache read and reasoning, apart. A message is counted once: the usage of
// TurnEnd events that share a message id replaces the one before it (Claude
// repeats a message's usage on each of its content blocks, the last one is
// the most complete); a TurnEnd without a message id is a message of its
// own. An agent whose turns carry no usage at all is counted from its
// RunEnd's cumulative usage instead, and a Claude run whose result line
// says what each model used (modelUsage) is counted from that.
//
// A [Ledger] keeps model calls ([Entry]: when, which agent CLI, project,
// session, agent and model, tokens, cost) from any number of inputs and
// counts each once across them by its key (a message id and request id, a
// Codex rollout's timestamped totals): a resumed session's copied history
// and a subagent transcript read beside its parent add nothing.
// [Summarize] groups the calls by day, week, month, session, model,
// 5-hour billing block, agent or run, in a time zone.
//
// Cost comes from the input where it says it (RunEnd.CostUSD, else the
// sum of the turns' own costs, TurnEnd.CostUSD: OpenCode's steps), and otherwise from a
// [Prices] table in LiteLLM's model_prices_and_context_window.json form:
// the snapshot embedded in the binary ([Default], litellm_prices.json) or
// one read with [ReadPrices]; models are found and priced as ccusage finds
// and prices them. A model the table does not know is reported as
// unpriced, never priced at zero. [Report] groups runs by run, model, day
// or agent, as the assemble and HTML summaries show them. docs/usage.md
// says where each number comes from.
package usage
