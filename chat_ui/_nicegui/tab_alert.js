// The chat's tab while choices wait: their count in the title ("(1) Choices chat"), and, once the
// person allowed it on this device, a notification for each reply that ends with a choices block
// while the tab is in the background. A block counts once it is pending and not locked: a reply
// still streaming has not ended yet. The title the page set is kept without the count. Its words
// (the button's label, the notification's title) come from the chat, in the chat's language.
const PENDING = ".choice-group.choice-group--pending:not(.choice-group--locked)";
const COUNT = /^\(\d+\) /;

export default {
  props: { label: String, notification: String },
  template: `
    <span>
      <q-btn v-if="offered" flat rounded no-caps icon="notifications" class="chat-notify"
        :label="label" @click="allow" />
    </span>`,
  data() {
    return { offered: false };
  },
  mounted() {
    this.told = new WeakSet(); // the blocks already counted in, told of or not
    this.offered = "Notification" in window && Notification.permission === "default";
    for (const block of document.querySelectorAll(PENDING)) this.told.add(block);
    this.observer = new MutationObserver(() => this.follow());
    const watched = { subtree: true, childList: true, characterData: true, attributes: true };
    this.observer.observe(document.body, { ...watched, attributeFilter: ["class"] });
    this.observer.observe(document.head, { ...watched, attributeFilter: ["class"] }); // the title
    this.follow();
  },
  unmounted() {
    this.observer.disconnect();
  },
  methods: {
    async allow() {
      await Notification.requestPermission();
      this.offered = Notification.permission === "default";
    },
    follow() {
      const waiting = [...document.querySelectorAll(PENDING)];
      const plain = document.title.replace(COUNT, "");
      const title = waiting.length ? `(${waiting.length}) ${plain}` : plain;
      if (document.title !== title) document.title = title;
      for (const block of waiting) {
        if (this.told.has(block)) continue;
        this.told.add(block);
        if (document.visibilityState === "visible" || !("Notification" in window)) continue;
        if (Notification.permission !== "granted") continue;
        const question = block.querySelector(".choice-question")?.textContent || "";
        const shown = new Notification(this.notification, { body: question, tag: "choices-chat" });
        shown.addEventListener("click", () => window.focus());
      }
    },
  },
};
