package v4a

/*
#include "v4a_go.h"
*/
import "C"

import "runtime"

// textResult turns a text handle into its string or its *Error, and frees it.
func textResult(t *C.v4a_text, status C.v4a_status) (string, error) {
	if t == nil {
		return "", statusError(Code(status), "")
	}
	defer C.v4a_text_free(t)
	if status != C.V4A_STATUS_OK {
		return "", errorFrom(C.v4a_text_error(t), status)
	}
	return goString(C.v4a_text_bytes(t)), nil
}

// MakePatch writes a V4A patch ("*** Update File:" envelope) that turns oldText into
// newText, with the context of opts (DefaultGenerateOptions: 3 lines), adding context or an "@@" anchor until every
// hunk is unique. The patch applies back exactly: applying it to oldText gives newText byte
// for byte. Identical texts give an empty envelope. A difference a V4A patch cannot express
// (a changed line terminator, an added or removed BOM) is ErrInvalidArgument. opts may be
// nil for the defaults.
func MakePatch(oldText, newText, path string, opts *GenerateOptions) (string, error) {
	op, on := strIn(oldText)
	np, nn := strIn(newText)
	pp, pn := strIn(path)
	var copts C.v4a_generate_options
	co, err := opts.toC(&copts)
	if err != nil {
		return "", err
	}
	var t *C.v4a_text
	status := C.v4a_make_patch(op, on, np, nn, pp, pn, co, &t)
	runtime.KeepAlive(op)
	runtime.KeepAlive(np)
	runtime.KeepAlive(pp)
	return textResult(t, status)
}

// MakeMovePatch is MakePatch for a file that also moves to destination: the patch has
// "*** Move to: destination" (omitted when the destination equals the path).
func MakeMovePatch(oldText, newText, path, destination string, opts *GenerateOptions) (string, error) {
	op, on := strIn(oldText)
	np, nn := strIn(newText)
	pp, pn := strIn(path)
	dp, dn := strIn(destination)
	var copts C.v4a_generate_options
	co, err := opts.toC(&copts)
	if err != nil {
		return "", err
	}
	var t *C.v4a_text
	status := C.v4a_make_move_patch(op, on, np, nn, pp, pn, dp, dn, co, &t)
	runtime.KeepAlive(op)
	runtime.KeepAlive(np)
	runtime.KeepAlive(pp)
	runtime.KeepAlive(dp)
	return textResult(t, status)
}

// MakeAddPatch writes a patch that adds path with text ("+" lines; a text without a final
// newline ends with "\ No newline at end of file").
func MakeAddPatch(path, text string) (string, error) {
	pp, pn := strIn(path)
	tp, tn := strIn(text)
	var t *C.v4a_text
	status := C.v4a_make_add_patch(pp, pn, tp, tn, &t)
	runtime.KeepAlive(pp)
	runtime.KeepAlive(tp)
	return textResult(t, status)
}

// MakeDeletePatch writes a patch that deletes path.
func MakeDeletePatch(path string) (string, error) {
	pp, pn := strIn(path)
	var t *C.v4a_text
	status := C.v4a_make_delete_patch(pp, pn, &t)
	runtime.KeepAlive(pp)
	return textResult(t, status)
}

// Normalize returns the form of line that level compares: trailing whitespace removed
// (LevelTrimEnd), surrounding whitespace removed (LevelTrim), whitespace runs collapsed
// (LevelCollapse), Unicode folded (LevelFold). For showing a model why two lines match.
func Normalize(line string, level Level) (string, error) {
	if err := checkLevel(level, "level"); err != nil {
		return "", err
	}
	lp, ln := strIn(line)
	var t *C.v4a_text
	status := C.v4a_normalize(lp, ln, C.uint32_t(level), &t)
	runtime.KeepAlive(lp)
	return textResult(t, status)
}
