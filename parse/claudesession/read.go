package claudesession

import (
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
)

// unmarshalLine decodes a line as json.Unmarshal does, in one pass when
// jsontext.Reader can; it reports false for a line it leaves to
// encoding/json (through logline.Lines.Unmarshal, which gives the errors
// and the tolerance), with l reset.
func (d *Decoder) unmarshalLine(raw []byte, l *line) bool {
	d.jr.Reset(raw)
	if d.readLine(&d.jr, l) && d.jr.End() {
		return true
	}
	*l = line{}
	return false
}

// readLine decodes a line into l, which is zero, in one pass. It fails
// where encoding/json would merge two values of one key into one
// (a repeated message or attachment, a repeated content), on keys that
// match a field only case-insensitively, and on content blocks it cannot
// read: encoding/json decodes those lines.
func (d *Decoder) readLine(r *jsontext.Reader, l *line) bool {
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "type":
			if !r.Null() {
				l.Type = lineType(r.Str())
			}
		case "subtype":
			r.StringField(&l.Subtype)
		case "uuid":
			r.StringField(&l.UUID)
		case "parentUuid":
			r.OptStringField(&l.ParentUUID)
		case "logicalParentUuid":
			r.StringField(&l.LogicalParentUUID)
		case "isSidechain":
			jsontext.ReadBool(r, &l.IsSidechain)
		case "agentId":
			r.StringField(&l.AgentID)
		case "sessionId":
			d.internField(r, &l.SessionID, 0)
		case "cwd":
			d.internField(r, &l.Cwd, 1)
		case "version":
			d.internField(r, &l.Version, 2)
		case "gitBranch":
			d.internField(r, &l.GitBranch, 3)
		case "message":
			if l.Message != nil {
				r.Fail() // encoding/json merges the two
				continue
			}
			if r.Null() {
				continue
			}
			l.Message = new(message)
			readMessage(r, l.Message)
		case "toolUseResult":
			l.ToolUseResult = r.Skip()
		case "isApiErrorMessage":
			jsontext.ReadBool(r, &l.IsAPIErrorMessage)
		case "error":
			l.Error = r.Skip()
		case "isMeta":
			jsontext.ReadBool(r, &l.IsMeta)
		case "isCompactSummary":
			jsontext.ReadBool(r, &l.IsCompactSummary)
		case "summary":
			r.StringField(&l.Summary)
		case "content":
			l.Content = r.Skip()
		case "operation":
			r.StringField(&l.Operation)
		case "attachment":
			if l.Attachment != nil {
				r.Fail()
				continue
			}
			if r.Null() {
				continue
			}
			l.Attachment = new(attachment)
			if r.Object() {
				for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
					if string(key) == "type" {
						r.StringField(&l.Attachment.Type)
						continue
					}
					r.SkipField(key, isAttachmentField)
				}
			}
		case "lastPrompt":
			r.StringField(&l.LastPrompt)
		default:
			r.SkipField(key, isLineField)
		}
	}
	return !r.Failed()
}

// readMessage decodes a user or assistant line's message into m, which
// is zero.
func readMessage(r *jsontext.Reader, m *message) {
	if !r.Object() {
		return
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "id":
			r.StringField(&m.ID)
		case "role":
			r.StringField(&m.Role)
		case "model":
			r.StringField(&m.Model)
		case "stop_reason":
			r.OptStringField(&m.StopReason)
		case "usage":
			if r.Null() {
				m.Usage = nil
				continue
			}
			messages.ReadUsage(r, jsontext.Ensure(&m.Usage))
		case "content":
			readContent(r, &m.Content)
		default:
			r.SkipField(key, isMessageField)
		}
	}
}

// readContent decodes a message's content as content.UnmarshalJSON does.
func readContent(r *jsontext.Reader, c *content) {
	if c.text != nil || c.raw != nil {
		r.Fail() // a second content: encoding/json would keep parts of both
		return
	}
	switch r.Peek() {
	case '"':
		s := r.String()
		c.text = &s
	case '[':
		off := r.Offset()
		r.Array()
		for r.More() {
			raw := r.Skip()
			if r.Failed() {
				return
			}
			var cb messages.Block
			if messages.UnmarshalBlock(raw, &cb) != nil {
				r.Fail() // a block of the wrong shape: the line's error
				return
			}
			c.blocks = append(c.blocks, cb)
		}
		c.raw = r.Since(off)
		if c.blocks == nil {
			c.blocks = []messages.Block{}
		}
	default:
		r.Skip() // null, or a value content ignores
	}
}

// internField reads a string field that repeats from line to line
// (sessionId, cwd, version, gitBranch), as the one of slot it read last
// when equal: no allocation per line.
func (d *Decoder) internField(r *jsontext.Reader, s *string, slot int) {
	if r.Null() {
		return
	}
	if b := r.Str(); string(b) != d.interned[slot] {
		d.interned[slot] = string(b)
	}
	*s = d.interned[slot]
}

// isLineField, isMessageField and isAttachmentField report whether name,
// lower-cased, is the key of a field of line, message or attachment.
func isLineField(name string) bool {
	switch name {
	case "type", "subtype", "uuid", "parentuuid", "logicalparentuuid", "issidechain", "agentid", "sessionid",
		"cwd", "version", "gitbranch", "message", "tooluseresult", "isapierrormessage", "error", "ismeta",
		"iscompactsummary", "summary", "content", "operation", "attachment", "lastprompt":
		return true
	}
	return false
}

func isMessageField(name string) bool {
	switch name {
	case "id", "role", "model", "content", "stop_reason", "usage":
		return true
	}
	return false
}

func isAttachmentField(name string) bool { return name == "type" }

// lineType returns a line type as a string, without allocating for the
// common ones.
func lineType(b []byte) string {
	switch string(b) {
	case typeUser:
		return typeUser
	case typeAssistant:
		return typeAssistant
	case typeSystem:
		return typeSystem
	case typeAttachment:
		return typeAttachment
	}
	return string(b)
}
