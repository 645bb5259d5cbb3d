/*
 * Layout checks: every struct of v4a.h has the size and field offsets the library was built
 * with (the Rust side asserts the same sizes), on 32- and 64-bit targets alike, with no
 * implicit padding. Included by the C11 and C++17 tests.
 */
#ifndef V4A_TEST_LAYOUT_H
#define V4A_TEST_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include "v4a.h"

#ifdef __cplusplus
#define V4A_LAYOUT(cond) static_assert(cond, #cond)
#else
#define V4A_LAYOUT(cond) _Static_assert(cond, #cond)
#endif

#define V4A_P sizeof(void *)

V4A_LAYOUT(sizeof(size_t) == V4A_P);
V4A_LAYOUT(sizeof(v4a_status) == 4);

V4A_LAYOUT(sizeof(v4a_bytes) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_bytes, ptr) == 0);
V4A_LAYOUT(offsetof(v4a_bytes, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_u32s) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_u32s, ptr) == 0);
V4A_LAYOUT(offsetof(v4a_u32s, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_source) == 2 * V4A_P + 8);
V4A_LAYOUT(offsetof(v4a_source, ptr) == 0);
V4A_LAYOUT(offsetof(v4a_source, len) == V4A_P);
V4A_LAYOUT(offsetof(v4a_source, present) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_source, reserved) == 2 * V4A_P + 4);

V4A_LAYOUT(sizeof(v4a_options) == 72);
V4A_LAYOUT(offsetof(v4a_options, struct_size) == 0);
V4A_LAYOUT(offsetof(v4a_options, max_level) == 4);
V4A_LAYOUT(offsetof(v4a_options, max_fuzz) == 8);
V4A_LAYOUT(offsetof(v4a_options, first_match) == 12);
V4A_LAYOUT(offsetof(v4a_options, already_applied_is_error) == 16);
V4A_LAYOUT(offsetof(v4a_options, ensure_final_newline) == 20);
V4A_LAYOUT(offsetof(v4a_options, add_file_line_ending) == 24);
V4A_LAYOUT(offsetof(v4a_options, diff_style) == 28);
V4A_LAYOUT(offsetof(v4a_options, diff_context) == 32);
V4A_LAYOUT(offsetof(v4a_options, refine) == 36);
V4A_LAYOUT(offsetof(v4a_options, search_budget) == 40);
V4A_LAYOUT(offsetof(v4a_options, refine_max_graphemes) == 48);
V4A_LAYOUT(offsetof(v4a_options, refine_max_cost) == 56);
V4A_LAYOUT(offsetof(v4a_options, refine_max_pair_lines) == 64);

V4A_LAYOUT(sizeof(v4a_line_pair) == 24);
V4A_LAYOUT(offsetof(v4a_line_pair, added_segment_count) == 20);
V4A_LAYOUT(sizeof(v4a_diff_columns) == 12 * V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_columns, counts) == 11 * V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_columns, kinds) == V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_columns, segment_counts) == 8 * V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_columns, segments) == 9 * V4A_P);

V4A_LAYOUT(sizeof(v4a_generate_options) == 12);
V4A_LAYOUT(offsetof(v4a_generate_options, struct_size) == 0);
V4A_LAYOUT(offsetof(v4a_generate_options, context) == 4);
V4A_LAYOUT(offsetof(v4a_generate_options, max_context) == 8);

V4A_LAYOUT(sizeof(v4a_error) == 40 + 12 * V4A_P);
V4A_LAYOUT(offsetof(v4a_error, status) == 0);
V4A_LAYOUT(offsetof(v4a_error, patch_line) == 4);
V4A_LAYOUT(offsetof(v4a_error, hunk) == 8);
V4A_LAYOUT(offsetof(v4a_error, closest_start) == 12);
V4A_LAYOUT(offsetof(v4a_error, closest_end) == 16);
V4A_LAYOUT(offsetof(v4a_error, reserved) == 20);
V4A_LAYOUT(offsetof(v4a_error, closest_similarity) == 24);
V4A_LAYOUT(offsetof(v4a_error, byte_offset) == 32);
V4A_LAYOUT(offsetof(v4a_error, message) == 40);
V4A_LAYOUT(offsetof(v4a_error, path) == 40 + 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_error, input) == 40 + 4 * V4A_P);
V4A_LAYOUT(offsetof(v4a_error, suggestion) == 40 + 6 * V4A_P);
V4A_LAYOUT(offsetof(v4a_error, corrected_hunk) == 40 + 8 * V4A_P);
V4A_LAYOUT(offsetof(v4a_error, candidates) == 40 + 10 * V4A_P);

V4A_LAYOUT(sizeof(v4a_segment) == 8 + 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_segment, kind) == 0);
V4A_LAYOUT(offsetof(v4a_segment, reserved) == 4);
V4A_LAYOUT(offsetof(v4a_segment, start) == 8);
V4A_LAYOUT(offsetof(v4a_segment, end) == 8 + V4A_P);
V4A_LAYOUT(sizeof(v4a_segments) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_segments, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_diff_line) == 16 + 4 * V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_line, kind) == 0);
V4A_LAYOUT(offsetof(v4a_diff_line, hunk) == 4);
V4A_LAYOUT(offsetof(v4a_diff_line, old_line) == 8);
V4A_LAYOUT(offsetof(v4a_diff_line, new_line) == 12);
V4A_LAYOUT(offsetof(v4a_diff_line, text) == 16);
V4A_LAYOUT(offsetof(v4a_diff_line, segment_start) == 16 + 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_line, segment_count) == 16 + 3 * V4A_P);
V4A_LAYOUT(sizeof(v4a_diff_lines) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_diff_lines, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_hunk_report) == 40 + 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_hunk_report, old_start) == 0);
V4A_LAYOUT(offsetof(v4a_hunk_report, old_len) == 4);
V4A_LAYOUT(offsetof(v4a_hunk_report, new_start) == 8);
V4A_LAYOUT(offsetof(v4a_hunk_report, new_len) == 12);
V4A_LAYOUT(offsetof(v4a_hunk_report, level) == 16);
V4A_LAYOUT(offsetof(v4a_hunk_report, fuzz) == 20);
V4A_LAYOUT(offsetof(v4a_hunk_report, candidates) == 24);
V4A_LAYOUT(offsetof(v4a_hunk_report, flags) == 28);
V4A_LAYOUT(offsetof(v4a_hunk_report, patch_line) == 32);
V4A_LAYOUT(offsetof(v4a_hunk_report, reserved) == 36);
V4A_LAYOUT(offsetof(v4a_hunk_report, line_levels) == 40);
V4A_LAYOUT(sizeof(v4a_hunk_reports) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_hunk_reports, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_change) == 20);
V4A_LAYOUT(offsetof(v4a_change, old_start) == 0);
V4A_LAYOUT(offsetof(v4a_change, old_len) == 4);
V4A_LAYOUT(offsetof(v4a_change, new_start) == 8);
V4A_LAYOUT(offsetof(v4a_change, new_len) == 12);
V4A_LAYOUT(offsetof(v4a_change, hunk) == 16);
V4A_LAYOUT(sizeof(v4a_changes) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_changes, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_unified_diff_input) == 10 * V4A_P + 8);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, source) == 0);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, text) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, path) == 4 * V4A_P);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, destination) == 6 * V4A_P);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, changes) == 8 * V4A_P);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, context) == 10 * V4A_P);
V4A_LAYOUT(offsetof(v4a_unified_diff_input, reserved) == 10 * V4A_P + 4);
V4A_LAYOUT(sizeof(v4a_mode) == 4 && sizeof(v4a_level) == 4 && sizeof(v4a_flavor) == 4);
V4A_LAYOUT(sizeof(v4a_shape) == 4 && sizeof(v4a_diff_kind) == 4 && sizeof(v4a_path_class) == 4);

V4A_LAYOUT(sizeof(v4a_op) == 24 + 4 * V4A_P);
V4A_LAYOUT(offsetof(v4a_op, kind) == 0);
V4A_LAYOUT(offsetof(v4a_op, path_class) == 4);
V4A_LAYOUT(offsetof(v4a_op, move_to_class) == 8);
V4A_LAYOUT(offsetof(v4a_op, patch_line) == 12);
V4A_LAYOUT(offsetof(v4a_op, hunk_count) == 16);
V4A_LAYOUT(offsetof(v4a_op, reserved) == 20);
V4A_LAYOUT(offsetof(v4a_op, path) == 24);
V4A_LAYOUT(offsetof(v4a_op, move_to) == 24 + 2 * V4A_P);
V4A_LAYOUT(sizeof(v4a_ops) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_ops, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_file_result) == 8 + 5 * V4A_P);
V4A_LAYOUT(offsetof(v4a_file_result, kind) == 0);
V4A_LAYOUT(offsetof(v4a_file_result, reserved) == 4);
V4A_LAYOUT(offsetof(v4a_file_result, path) == 8);
V4A_LAYOUT(offsetof(v4a_file_result, move_to) == 8 + 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_file_result, result) == 8 + 4 * V4A_P);
V4A_LAYOUT(sizeof(v4a_file_results) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_file_results, len) == V4A_P);

V4A_LAYOUT(sizeof(v4a_workspace_options) == 24 + V4A_P);
V4A_LAYOUT(offsetof(v4a_workspace_options, struct_size) == 0);
V4A_LAYOUT(offsetof(v4a_workspace_options, dry_run) == 4);
V4A_LAYOUT(offsetof(v4a_workspace_options, allow_overwrite) == 8);
V4A_LAYOUT(offsetof(v4a_workspace_options, allow_read_only) == 12);
V4A_LAYOUT(offsetof(v4a_workspace_options, allow_vcs) == 16);
V4A_LAYOUT(offsetof(v4a_workspace_options, lock_wait_ms) == 20);
V4A_LAYOUT(offsetof(v4a_workspace_options, engine) == 24);
V4A_LAYOUT(sizeof(v4a_workspace_file) == 16 + 9 * V4A_P);
V4A_LAYOUT(offsetof(v4a_workspace_file, kind) == 0);
V4A_LAYOUT(offsetof(v4a_workspace_file, change) == 4);
V4A_LAYOUT(offsetof(v4a_workspace_file, binary) == 8);
V4A_LAYOUT(offsetof(v4a_workspace_file, reserved) == 12);
V4A_LAYOUT(offsetof(v4a_workspace_file, path) == 16);
V4A_LAYOUT(offsetof(v4a_workspace_file, move_to) == 16 + 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_workspace_file, source_key) == 16 + 4 * V4A_P);
V4A_LAYOUT(offsetof(v4a_workspace_file, target_key) == 16 + 6 * V4A_P);
V4A_LAYOUT(offsetof(v4a_workspace_file, result) == 16 + 8 * V4A_P);
V4A_LAYOUT(sizeof(v4a_workspace_files) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_workspace_files, len) == V4A_P);
V4A_LAYOUT(sizeof(v4a_bytes_list) == 2 * V4A_P);
V4A_LAYOUT(offsetof(v4a_bytes_list, len) == V4A_P);
V4A_LAYOUT(sizeof(v4a_file_change) == 4 && sizeof(v4a_recovery) == 4 && sizeof(v4a_failure) == 4);

#undef V4A_P

#endif /* V4A_TEST_LAYOUT_H */
