import { AccessDenied } from '@client/components/access-denied';
import { useAuth } from '@client/lib/auth';
import { AdminDashboard } from './admin-dashboard';

export function AdminPage() {
  const { user } = useAuth();
  // The list query lives inside AdminDashboard, so it never runs for a non-admin (SPEC §6).
  if (!user || user.role !== 'admin') return <AccessDenied />;
  return <AdminDashboard user={user} />;
}
