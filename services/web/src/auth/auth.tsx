import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { api } from '../api/client.js';
import { unwrap } from '../api/envelope.js';
import { onTokensChange, readTokens, writeTokens, type Tokens } from '../api/session.js';

export interface CurrentUser {
  userId: number;
  loginId: string;
  userName: string;
  roleCodes: string[];
  agentId: number | null;
}

interface Auth {
  signedIn: boolean;
  user: CurrentUser | undefined;
  login(loginId: string, password: string): Promise<void>;
  logout(): Promise<void>;
}

const Ctx = createContext<Auth | null>(null);
export const ME_KEY = ['auth', 'me'] as const;

/** `/api/auth/me`: the query of the provider below, also fetched by main.tsx before the first render. */
export const meQuery = queryOptions({
  queryKey: ME_KEY,
  staleTime: 5 * 60_000,
  queryFn: async () => unwrap<CurrentUser>(await api.GET('/api/auth/me')),
});

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [tokens, setTokens] = useState<Tokens | null>(readTokens);
  useEffect(
    () =>
      onTokensChange((next) => {
        setTokens(next);
        if (!next) queryClient.clear();
      }),
    [queryClient],
  );

  const me = useQuery({ ...meQuery, enabled: tokens !== null });

  const login = useCallback(
    async (loginId: string, password: string) => {
      const data = unwrap<Tokens & { user: CurrentUser }>(await api.POST('/api/auth/login', { body: { loginId, password } }));
      queryClient.clear();
      queryClient.setQueryData(ME_KEY, data.user);
      writeTokens({ accessToken: data.accessToken, refreshToken: data.refreshToken });
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    const current = readTokens();
    if (current) await api.POST('/api/auth/logout', { body: { refreshToken: current.refreshToken } }).catch(() => undefined);
    writeTokens(null);
  }, []);

  const value = useMemo<Auth>(
    () => ({ signedIn: tokens !== null, user: me.data, login, logout }),
    [tokens, me.data, login, logout],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useAuth(): Auth {
  const value = useContext(Ctx);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
