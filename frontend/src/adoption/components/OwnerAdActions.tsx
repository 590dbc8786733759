import Button from '@mui/material/Button';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import EditIcon from '@mui/icons-material/EditOutlined';

/** The owner's Edit Post / Delete Post pair, on listing cards and in My Adoptions. */
export function OwnerAdActions({
  onEdit,
  onDelete,
  deleting,
}: {
  onEdit: () => void;
  onDelete: () => void;
  deleting: boolean;
}) {
  return (
    <>
      <Button size="small" variant="outlined" startIcon={<EditIcon />} onClick={onEdit}>
        Edit Post
      </Button>
      <Button
        size="small"
        variant="outlined"
        color="error"
        startIcon={<DeleteIcon />}
        onClick={onDelete}
        disabled={deleting}
      >
        Delete Post
      </Button>
    </>
  );
}
