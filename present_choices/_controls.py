"""The characters that act on a terminal's line rather than show on it, beyond the control
characters (C0, DEL, C1) everyone knows: the bidirectional controls, which reorder what follows
them. Agent text shown in a terminal or an alert has them made visible or removed
(`provide-choice history`, every alert's plain text)."""

BIDIRECTIONAL_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""ALM, LRM, RLM, the embeddings and overrides (LRE to RLO) and the isolates (LRI to PDI)."""
