// Admin screen (SPEC §2, §5, §8): create users, the registered-users list with inline
// editing and deletion, who has two-factor sign-in on (and turning it off for one who lost
// their phone), and publisher API tokens (create with expiry, allowed IPs and an hourly
// limit; edit those; copy URL, renew, delete; last use and request count).
import { useState } from 'react';
import { CreateUserForm } from '../components/admin/CreateUserForm';
import { TokensSection } from '../components/admin/TokensSection';
import { UsersList } from '../components/admin/UsersList';

export default function AdminUsers() {
  const [usersVersion, setUsersVersion] = useState(0);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold text-gray-900">Usuarios y tokens</h1>
      {/* min-w-0: a wide table scrolls in its own box instead of widening the grid (390 px). */}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-1">
          <CreateUserForm onCreated={() => setUsersVersion((v) => v + 1)} />
        </div>
        <div className="min-w-0 lg:col-span-2">
          <UsersList version={usersVersion} />
        </div>
      </div>
      <TokensSection />
    </div>
  );
}
