import { useParams, useSearchParams } from 'react-router-dom';
import { ChatGate } from './components/ChatGate';
import { adIdParam } from './format';

/**
 * /chat and /chat/{recipientId}: the conversation list and the open conversation. With a recipient the
 * conversation with that user is found or started; `?adId=` says which adoption ad it is about.
 */
export default function ChatPage() {
  const { recipientId } = useParams();
  const [params] = useSearchParams();
  return <ChatGate recipientId={recipientId || null} adId={adIdParam(params.get('adId'))} basePath="/chat" />;
}
