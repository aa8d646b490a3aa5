import { Link } from 'react-router';
import { StatusView } from '../components/StatusView';

export function NotFoundPage() {
  return (
    <div className="card">
      <StatusView
        kind="empty"
        title="Page not found"
        action={
          <Link className="button" to="/runs">
            Go to runs
          </Link>
        }
      />
    </div>
  );
}
