import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { AdminAppBar } from './AdminAppBar';
import { AdminMenu } from './AdminMenu';

/**
 * react-admin's layout is at least as wide as its content ('fit-content'): a wide table would widen the whole
 * page on a phone. Here the page keeps the screen's width and tables scroll inside their card instead.
 */
const layoutSx = {
  minWidth: 0,
  '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 },
} as const;

/** react-admin's responsive layout (a drawer on phones) with the spec's header and sidebar. */
export function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <Layout appBar={AdminAppBar} menu={AdminMenu} sx={layoutSx}>
      {children}
    </Layout>
  );
}
