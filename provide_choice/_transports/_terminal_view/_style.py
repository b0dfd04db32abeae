"""The terminal's colours, by the style class each screen names (`class:note`, `class:deadline`)."""

from __future__ import annotations

from prompt_toolkit.styles import Style

STYLE = Style(
    [
        ("title", "bold"),
        ("recommended", "fg:ansigreen bold"),
        ("description", "fg:ansibrightblack"),
        ("note", "fg:ansiyellow italic"),
        ("deadline", "fg:ansicyan"),
        ("placeholder", "fg:ansibrightblack italic"),
        ("summary", "bold"),
        ("refusal", "fg:ansired bold"),
        ("status", "fg:ansiyellow"),
        ("markdown.code", "fg:ansicyan"),
        ("markdown.prefix", "fg:ansibrightblack"),
        ("chip", "reverse bold"),
        ("progress", "fg:ansibrightblack"),
        ("number", "fg:ansibrightblack"),
        ("preview.title", "bold underline"),
        ("preview.more", "fg:ansibrightblack italic"),
    ]
)
