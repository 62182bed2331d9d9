package openairesp

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/respwire"
)

// Output shapes, field order as the API writes them.
type (
	outResponse struct {
		ID                string            `json:"id"`
		Object            string            `json:"object"`
		CreatedAt         int64             `json:"created_at,omitempty"` // the source's; absent when it said none
		Status            string            `json:"status"`
		Error             *openai.APIError  `json:"error"`
		IncompleteDetails *incomplete       `json:"incomplete_details"`
		Model             string            `json:"model"`
		Output            []json.RawMessage `json:"output"`
		ServiceTier       string            `json:"service_tier,omitempty"` // the source's, when an OpenAI tier
		Usage             *wire.Usage       `json:"usage"`
	}
	incomplete struct {
		Reason string `json:"reason"`
	}
	respEvent struct {
		Type     string      `json:"type"`
		Seq      int64       `json:"sequence_number"`
		Response outResponse `json:"response"`
	}
	itemEvent struct {
		Type        string          `json:"type"`
		Seq         int64           `json:"sequence_number"`
		OutputIndex int             `json:"output_index"`
		Item        json.RawMessage `json:"item"`
	}
	annotationEvent struct {
		Type            string          `json:"type"`
		Seq             int64           `json:"sequence_number"`
		ItemID          string          `json:"item_id"`
		OutputIndex     int             `json:"output_index"`
		ContentIndex    int             `json:"content_index"`
		AnnotationIndex int             `json:"annotation_index"`
		Annotation      json.RawMessage `json:"annotation"`
	}
	argsDone struct {
		Type        string `json:"type"`
		Seq         int64  `json:"sequence_number"`
		ItemID      string `json:"item_id"`
		OutputIndex int    `json:"output_index"`
		Arguments   string `json:"arguments"`
	}
	inputDone struct {
		Type        string `json:"type"`
		Seq         int64  `json:"sequence_number"`
		ItemID      string `json:"item_id"`
		OutputIndex int    `json:"output_index"`
		Input       string `json:"input"`
	}
	errorEvent struct {
		Type    string `json:"type"`
		Seq     int64  `json:"sequence_number"`
		Code    any    `json:"code"`
		Message string `json:"message"`
		Param   any    `json:"param"`
	}
	messageItem struct {
		ID      string            `json:"id"`
		Type    string            `json:"type"`
		Status  string            `json:"status"`
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	toolSearchItem struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		CallID    string          `json:"call_id"`
		Execution string          `json:"execution"`
		Status    string          `json:"status"`
		Arguments json.RawMessage `json:"arguments"`
	}
	reasoningItem struct {
		ID               string            `json:"id"`
		Type             string            `json:"type"`
		Summary          []json.RawMessage `json:"summary"`
		EncryptedContent string            `json:"encrypted_content,omitempty"`
	}
	functionItem struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		Status    string `json:"status"`
		Arguments string `json:"arguments"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
	}
	customItem struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
		CallID string `json:"call_id"`
		Name   string `json:"name"`
		Input  string `json:"input"`
	}
	mcpItem struct {
		ID          string  `json:"id"`
		Type        string  `json:"type"`
		Status      string  `json:"status,omitempty"`
		ServerLabel string  `json:"server_label"`
		Name        string  `json:"name"`
		Arguments   string  `json:"arguments"`
		Output      *string `json:"output"`
		Error       *string `json:"error"`
	}
)
