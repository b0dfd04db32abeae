// The message list: role="log". It follows the newest message unless the reader has scrolled up to
// read; a message the person sends themselves always brings the view back to the bottom.
export default {
  template: `<div role="log" aria-label="Conversation"><slot></slot></div>`,
  mounted() {
    this.following = true;
    this.onScroll = () => {
      const el = this.$el;
      this.following = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    };
    this.$el.addEventListener("scroll", this.onScroll, { passive: true });
    this.observer = new MutationObserver((mutations) => {
      const sent = mutations.some((mutation) =>
        [...mutation.addedNodes].some((node) => node.classList?.contains("chat-message--user")),
      );
      if (sent || this.following) this.scrollToBottom();
    });
    this.observer.observe(this.$el, { childList: true, subtree: true, characterData: true });
    this.scrollToBottom();
  },
  unmounted() {
    this.observer.disconnect();
    this.$el.removeEventListener("scroll", this.onScroll);
  },
  methods: {
    scrollToBottom() {
      this.following = true;
      this.$el.scrollTop = this.$el.scrollHeight;
    },
  },
};
