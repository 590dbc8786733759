import Button from '@mui/material/Button';
import ShareIcon from '@mui/icons-material/ShareOutlined';
import { COMMUNITY_MESSAGES } from '@pawhaven/contracts';
import { useToast } from '../../shared/toast';
import { postPath } from '../format';

/** The post's absolute address: what a shared link points at. */
const postUrl = (postId: string) => new URL(postPath(postId), window.location.origin).href;

/**
 * Share a post: the system's share sheet (the Web Share API) where the browser has it, else its link is copied to
 * the clipboard ('Link copied'). Closing the share sheet is not a failure; a sheet that fails copies instead.
 */
export function ShareButton({ postId, caption }: { postId: string; caption: string }) {
  const toast = useToast();
  const share = async () => {
    const url = postUrl(postId);
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: 'PawHaven', text: caption.slice(0, 200), url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      toast(COMMUNITY_MESSAGES.linkCopied, 'success');
    } catch {
      toast(COMMUNITY_MESSAGES.linkCopyFailed, 'error');
    }
  };
  return (
    <Button
      onClick={() => void share()}
      startIcon={<ShareIcon aria-hidden />}
      color="inherit"
      aria-label="Share post"
      sx={{ color: 'text.secondary', px: 1.5, minWidth: 0, '& .MuiButton-startIcon': { mr: 0.75 } }}
    >
      Share
    </Button>
  );
}
