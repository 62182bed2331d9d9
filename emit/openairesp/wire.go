package openairesp

//go:generate go run ../../internal/wire/gen -write

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/respwire"
)

// Output shapes, field order as the API writes them.
type (
	//wire:write nohtml
	outResponse struct {
		ID                string            `json:"id"`
		Object            string            `json:"object"`
		CreatedAt         int64             `json:"created_at,omitempty"` // the source's; absent when it said none
		Status            string            `json:"status"`
		Error             *openai.APIError  `json:"error"`
		IncompleteDetails *incomplete       `json:"incomplete_details"`
		Model             string            `json:"model"`
		Output            []json.RawMessage `json:"output" wire:"compact"`
		ServiceTier       string            `json:"service_tier,omitempty"` // the source's, when an OpenAI tier
		Usage             *wire.Usage       `json:"usage"`
	}
	//wire:write nohtml
	incomplete struct {
		Reason string `json:"reason"`
	}
	//wire:write nohtml
	respEvent struct {
		Type     string      `json:"type"`
		Seq      int64       `json:"sequence_number"`
		Response outResponse `json:"response"`
	}
	//wire:write nohtml
	itemEvent struct {
		Type        string          `json:"type"`
		Seq         int64           `json:"sequence_number"`
		OutputIndex int             `json:"output_index"`
		Item        json.RawMessage `json:"item" wire:"compact"`
	}
	//wire:write nohtml
	annotationEvent struct {
		Type            string          `json:"type"`
		Seq             int64           `json:"sequence_number"`
		ItemID          string          `json:"item_id"`
		OutputIndex     int             `json:"output_index"`
		ContentIndex    int             `json:"content_index"`
		AnnotationIndex int             `json:"annotation_index"`
		Annotation      json.RawMessage `json:"annotation" wire:"compact"`
	}
	//wire:write nohtml
	argsDone struct {
		Type        string `json:"type"`
		Seq         int64  `json:"sequence_number"`
		ItemID      string `json:"item_id"`
		OutputIndex int    `json:"output_index"`
		Arguments   string `json:"arguments"`
	}
	//wire:write nohtml
	inputDone struct {
		Type        string `json:"type"`
		Seq         int64  `json:"sequence_number"`
		ItemID      string `json:"item_id"`
		OutputIndex int    `json:"output_index"`
		Input       string `json:"input"`
	}
	//wire:write nohtml
	errorEvent struct {
		Type    string `json:"type"`
		Seq     int64  `json:"sequence_number"`
		Code    any    `json:"code"`
		Message string `json:"message"`
		Param   any    `json:"param"`
	}
	//wire:write nohtml
	messageItem struct {
		ID      string            `json:"id"`
		Type    string            `json:"type"`
		Status  string            `json:"status"`
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content" wire:"compact"`
	}
	//wire:write nohtml
	toolSearchItem struct {
		ID        string          `json:"id"`
		Type      string          `json:"type"`
		CallID    string          `json:"call_id"`
		Execution string          `json:"execution"`
		Status    string          `json:"status"`
		Arguments json.RawMessage `json:"arguments" wire:"compact"`
	}
	//wire:write nohtml
	reasoningItem struct {
		ID               string            `json:"id"`
		Type             string            `json:"type"`
		Summary          []json.RawMessage `json:"summary" wire:"compact"`
		EncryptedContent string            `json:"encrypted_content,omitempty"`
	}
	//wire:write nohtml
	functionItem struct {
		ID        string `json:"id"`
		Type      string `json:"type"`
		Status    string `json:"status"`
		Arguments string `json:"arguments"`
		CallID    string `json:"call_id"`
		Name      string `json:"name"`
	}
	//wire:write nohtml
	customItem struct {
		ID     string `json:"id"`
		Type   string `json:"type"`
		Status string `json:"status"`
		CallID string `json:"call_id"`
		Name   string `json:"name"`
		Input  string `json:"input"`
	}
	//wire:write nohtml
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
