package codexsession

import (
	"encoding/json"

	"github.com/agentstream/agentstream/event"
)

// A Codex subagent (the collab tool spawn_agent) is a thread of its own
// with a rollout file of its own, whose session_meta names the parent
// thread (source.subagent.thread_spawn.parent_thread_id). The parent's
// rollout holds the spawn_agent call, whose output names the new thread
// ({"agent_id": ...}). When Config.Subagent can open that thread's
// rollout, it is read in full right after the spawn call's result, its
// events in the subagent's scope (its thread id) under the call.

// spawnTool is the collab tool that starts a subagent thread.
const spawnTool = "spawn_agent"

// maxDepth bounds subagents of subagents read (Codex's own default allows
// one level).
const maxDepth = 8

// childSpec is what the parent knows of the subagent whose rollout a
// child decoder reads.
type childSpec struct {
	parent, tool, name string
	depth              int // 0 for a subagent of the main thread
}

// spawned arranges for the rollout of the thread a spawn_agent call
// started to be read after the call's result, whose text is out.
func (d *Decoder) spawned(c *call, out string) {
	if d.cfg.Subagent == nil {
		return
	}
	var res struct {
		AgentID string `json:"agent_id"`
	}
	if json.Unmarshal([]byte(out), &res) != nil || res.AgentID == "" {
		return
	}
	if d.child != nil && d.child.depth+1 >= maxDepth {
		d.out.Problem(d.errorf(event.ErrSyntax, "subagent %s: nested more than %d deep; not read", res.AgentID, maxDepth))
		return
	}
	rc, name, err := d.cfg.Subagent(res.AgentID)
	if err != nil {
		d.out.Problem(d.errorf(event.ErrSyntax, "subagent %s: %v", res.AgentID, err))
		return
	}
	if rc == nil {
		return
	}
	var args struct {
		AgentType string `json:"agent_type"`
	}
	json.Unmarshal(c.input, &args)
	spec := &childSpec{parent: d.agent, tool: c.id, name: args.AgentType}
	if d.child != nil {
		spec.depth = d.child.depth + 1
	}
	cfg := d.cfg
	cfg.Source, cfg.Agent = name, res.AgentID
	child := NewDecoder(rc, &cfg)
	child.child = spec
	d.splices.Add(&d.out, child, rc)
}

// spliceFailed is the problem of a subagent rollout whose reading failed:
// said, and the parent goes on.
func (d *Decoder) spliceFailed(dec event.Decoder, err error) error {
	return d.errorf(event.ErrSyntax, "reading the rollout of subagent %s: %v", dec.(*Decoder).agent, err)
}
