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
	partEvent struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Part         any    `json:"part"`
	}
	textDelta struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Delta        string `json:"delta"`
		Logprobs     []any  `json:"logprobs"`
	}
	textDone struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Text         string `json:"text"`
		Logprobs     []any  `json:"logprobs"`
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
	summaryPartEvent struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		SummaryIndex int    `json:"summary_index"`
		Part         part   `json:"part"`
	}
	summaryDelta struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		SummaryIndex int    `json:"summary_index"`
		Delta        string `json:"delta"`
	}
	summaryDone struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		SummaryIndex int    `json:"summary_index"`
		Text         string `json:"text"`
	}
	argsDelta struct {
		Type        string `json:"type"`
		Seq         int64  `json:"sequence_number"`
		ItemID      string `json:"item_id"`
		OutputIndex int    `json:"output_index"`
		Delta       string `json:"delta"`
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

	part struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	textPart struct {
		Type        string            `json:"type"`
		Annotations []json.RawMessage `json:"annotations"`
		Logprobs    []any             `json:"logprobs"`
		Text        string            `json:"text"`
	}
	refusalPart struct {
		Type    string `json:"type"`
		Refusal string `json:"refusal"`
	}
	refusalDone struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Refusal      string `json:"refusal"`
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
