"""The chat in NiceGUI: everything of `chat_ui` that imports NiceGUI, one module per element.

- the page and the conversation: `_chat_page` (`chat_page`, the whole page), `_chat_view`
  (`ChatView`: the log, the "thinking" indicator, the composer; the `ChatFrontend` of a
  `chat_ui._session.ChatSession`, which decides what it draws), `_streaming_message` (the reply
  under way in the log: its `ReplyView`);
- the elements: `_message` (one row per role), `_choices_markdown` (`ChoicesMarkdown`: a message
  with its blocks as buttons), `_choice_group` (`ChoiceGroup`: one block), `_interrupt_group` and
  `_interrupt_answers` (an interrupt and the ways its answer is drawn), `_composer`,
  `_store_notice`, `_tab_alert` (`TabAlert`, with `tab_alert.js`), and the log's own script
  (`chat_log.js`);
- the page's language (`_language`) and style sheet (`_styles`, `chat.css`);
- the stores as a NiceGUI app has them: `_local_store` (`LocalStore`, this browser's, in NiceGUI's
  storage) and `_redis_store` (`RedisStore`, whose conversation is by default the browser's).

Nothing is imported here, so that `chat_ui` loads each public name's own module on first use.
"""
