package v4a

/*
#include "v4a_go.h"
*/
import "C"

import "sync"

// Flavor is the tool-calling platform a tool definition is written for.
type Flavor uint32

// The tool flavours of ToolSchema.
const (
	// FlavorOpenAIChat is OpenAI function calling (strict JSON Schema), Chat Completions
	// layout: {"type": "function", "function": {...}}.
	FlavorOpenAIChat Flavor = C.V4A_FLAVOR_OPENAI_CHAT
	// FlavorOpenAIResponses is OpenAI function calling (strict JSON Schema), Responses
	// layout: {"type": "function", "name": ..., "parameters": ..., "strict": true}.
	FlavorOpenAIResponses Flavor = C.V4A_FLAVOR_OPENAI_RESPONSES
	// FlavorOpenAIResponsesCustom is an OpenAI custom (freeform) tool with a Lark grammar,
	// Responses layout.
	FlavorOpenAIResponsesCustom Flavor = C.V4A_FLAVOR_OPENAI_RESPONSES_CUSTOM
	// FlavorAnthropic is Anthropic tool use (input_schema).
	FlavorAnthropic Flavor = C.V4A_FLAVOR_ANTHROPIC
	// FlavorMCP is the Model Context Protocol (inputSchema and annotations).
	FlavorMCP Flavor = C.V4A_FLAVOR_MCP
)

// Shape is how a tool receives patches.
type Shape uint32

// The tool shapes of ToolSchema.
const (
	// ShapeInput: the whole patch in one call ("input"), tool "apply_patch".
	ShapeInput Shape = C.V4A_SHAPE_INPUT
	// ShapeFile: one file per call ("path", "mode", "diff"), tool "patch_file"; apply each
	// call with ApplyModeName.
	ShapeFile Shape = C.V4A_SHAPE_FILE
)

// ToolSchema returns the tool definition (JSON text) for a flavour and a shape, ready to
// hand to the model's API. An unknown flavour or shape is ErrInvalidArgument.
func ToolSchema(flavor Flavor, shape Shape) (string, error) {
	b := C.v4a_tool_schema(C.v4a_flavor(flavor), C.v4a_shape(shape))
	if b.ptr == nil {
		return "", statusError(CodeInvalidArgument, "unknown tool flavour or shape: expected one of "+
			"FlavorOpenAIChat, FlavorOpenAIResponses, FlavorOpenAIResponsesCustom, FlavorAnthropic, "+
			"FlavorMCP and ShapeInput or ShapeFile")
	}
	return goString(b), nil
}

var (
	grammar      = sync.OnceValue(func() string { return goString(C.v4a_grammar()) })
	fileGrammar  = sync.OnceValue(func() string { return goString(C.v4a_file_grammar()) })
	instructions = sync.OnceValue(func() string { return goString(C.v4a_instructions()) })
)

// Grammar returns the Lark grammar of a whole patch in the canonical form (what
// ParsePatchStrict accepts), for OpenAI custom tools.
func Grammar() string { return grammar() }

// FileGrammar returns the Lark grammar of one file's section without the envelope, used by
// the one-file-per-call custom tool.
func FileGrammar() string { return fileGrammar() }

// Instructions returns the model instructions for the system prompt of an agent that has
// one of the tools: the format, the context and anchor rules, and how to read v4a's errors.
func Instructions() string { return instructions() }
