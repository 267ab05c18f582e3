import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider } from 'antd';
import enUS from 'antd/locale/en_US';
import koKR from 'antd/locale/ko_KR';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router';
import { ApiError } from './api/envelope.js';
import { AuthProvider } from './auth/auth.js';
import { I18nProvider, useI18n } from './i18n/i18n.js';
import { router } from './routes.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A refused or invalid call will not get better by retrying.
      retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
    },
  },
});

function Themed() {
  const { lang } = useI18n();
  return (
    <ConfigProvider
      locale={lang === 'ko' ? koKR : enUS}
      theme={{
        // antd's component styles come from its prebuilt stylesheet (main.tsx) instead of being generated
        // and injected while the first page renders (~0.3 s of a cold load's main thread on the settlement
        // list, measured with the web bench's profile part); the tokens below still reach them as CSS variables.
        zeroRuntime: true,
        token: {
          fontFamily:
            "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, 'Noto Sans KR', 'Noto Sans CJK KR', 'Malgun Gothic', sans-serif",
          // Darker than antd's defaults so that text, links and buttons pass WCAG AA contrast (4.5:1).
          colorPrimary: '#0958d9',
          // antd derives a lighter hover blue (about 3:1 on white); a hovered button must stay readable.
          colorPrimaryHover: '#003eb3',
          colorLinkHover: '#003eb3',
          colorLink: '#0958d9',
          colorError: '#cf1322',
          colorSuccess: '#237804',
          colorWarning: '#ad4e00',
          colorInfo: '#0958d9',
          colorTextDescription: 'rgba(0, 0, 0, 0.65)',
          colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
        },
      }}
    >
      <AntApp>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function App() {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <I18nProvider>
          <Themed />
        </I18nProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
