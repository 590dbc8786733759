import { useSearchParams } from 'react-router-dom';
import { ChatGate } from './components/ChatGate';
import { adIdParam } from './format';

/**
 * /messages: the same conversations as /chat, entered with `?recipientId=` (and `?adId=`): the list
 * titled 'Messages' with 'Search conversations...', and the chat window.
 */
export default function MessagesPage() {
  const [params] = useSearchParams();
  return (
    <ChatGate
      recipientId={params.get('recipientId') || null}
      adId={adIdParam(params.get('adId'))}
      basePath="/messages"
    />
  );
}
