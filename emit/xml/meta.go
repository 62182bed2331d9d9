package xml

import (
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	wire "github.com/agentstream/agentstream/parse/xmlstream"
)

// metaFinal returns the meta_final data: the producer's own when the
// event came from this producer family (own: appendMetaData ASCII-escapes
// it as json.dumps writes it in XML), else one built from the event's
// fields, one line of ASCII JSON already: the producer's
// conversation_history (empty), then agentmeta.Final's fields.
func metaFinal(ev *event.RunEnd) (data []byte, own bool) {
	if ev.MetaKind == wire.MetaKind && len(ev.Meta) > 0 {
		return ev.Meta, true
	}
	return marshal(struct {
		ConversationHistory []any `json:"conversation_history"`
		agentmeta.Final
	}{[]any{}, agentmeta.FinalOf(ev)}), false
}
