import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './providers/app-providers';
import { routes } from './routes';

const router = createBrowserRouter(routes);

/** The application: providers around the history-mode router. */
export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}
