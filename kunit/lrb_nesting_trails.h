/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interleavings of nested writers found by the Promela model (model/), for
 * lrb_nesting's trail cases. Generated: make model-trails writes this file.
 */
static const struct nest_trail nest_trails[] = {
	{ .name = "no_stale_reset_1", .plant = "no_stale_reset",
	  .flags = LRB_FL_OVERWRITE, .pages = 3,
	  .nprep = 3, .prep = { 4064, 4064, 4064 }, .outer_len = 4064,
	  .ninj = 2,
	  .inj = { { 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 4064 },
		   { 0, LRB_HOOK_HEAD_UPDATE_AFTER, 1, 4064 } } },
};
