import Button from '@mui/material/Button';
import DeleteIcon from '@mui/icons-material/DeleteOutline';
import { useRecordContext } from 'react-admin';
import { useAdminDelete, type AdminDeletion } from './useAdminDelete';

/** A row's Delete button: the spec's confirmation, then the deletion. */
export function DeleteRowButton({ kind, label = 'Delete' }: { kind: AdminDeletion; label?: string }) {
  const record = useRecordContext<{ id: string }>();
  const { remove, busy } = useAdminDelete(kind);
  if (!record) return null;
  return (
    <Button
      color="error"
      size="small"
      startIcon={<DeleteIcon />}
      disabled={busy}
      onClick={(e) => {
        e.stopPropagation();
        remove(record);
      }}
    >
      {label}
    </Button>
  );
}
