import Dispatch

/// Runs a task's jobs on the main dispatch queue, which the main thread's run loop drains: a
/// command run with this preference (``CLI/start(_:)``) does all its work,
/// the view context's included, on the main thread.
///
/// Without it a query started four threads: the async main hopped to the global executor
/// (a worker, then Dispatch's manager and pool monitor), and after `dispatch_main` a worker
/// drained the main queue for the view context. That was about a seventh of `ecbrates rate`'s
/// time (scripts/bench, "Query: ecbrates rate").
final class MainThreadExecutor: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.main.async {
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
