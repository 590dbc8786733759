/** TODO: built by the chat and notifications work (issue 8). */
export default function ChatPage() {
  return null;
}
