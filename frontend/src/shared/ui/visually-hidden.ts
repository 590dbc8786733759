/** Styles that hide text from the eye but not from screen readers (labels of icon-only controls, live text).
 * Sizes in px: in MUI's sx a bare 1 means 100 %. */
export const visuallyHidden = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;
