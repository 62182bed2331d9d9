// Package toolset reads the tool definitions that the inline XML tool
// protocols need: which tag names are tools and which are their parameters.
//
// # Tools files
//
// A tools file (Parse, LoadFile) is JSON in one of the shapes the model
// APIs use to advertise tools:
//
//   - an array of tool definitions, each {"name": ..., "input_schema": {...}}
//     (Anthropic), {"name": ..., "parameters": {...}} (OpenAI functions,
//     MCP's "inputSchema" too) or {"type": "function", "function": {...}}
//     (OpenAI tools);
//   - an object {"tools": [...]} holding such an array;
//   - an object mapping tool names to their JSON Schemas.
//
// A tool's parameters are the keys of its schema's "properties", in file
// order; their "type" is kept so decoders can give numbers and booleans
// their JSON type.
//
// Tolerance: fields other than these (descriptions, "required", nested
// schemas) are ignored. A tool without a schema, or whose schema has no
// "properties", declares no parameters (an empty, non-nil Params). A type
// list such as ["integer", "null"] gives its first type other than "null";
// a type that is missing or not a string gives "". An empty file, a
// definition without a name, and JSON that does not parse as one of the
// shapes above are errors.
//
// # The flag form
//
// On the command line (ParseFlags) a tool is "name", whose parameters are
// not declared (nil Params: any parameter name is accepted), or
// "name:param1,param2". One flag value may hold several tools, separated
// by spaces or semicolons. Names and parameter names are tag names
// (ValidName): a letter or '_', then letters, digits, '_', '-' or '.'.
package toolset
