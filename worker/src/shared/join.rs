//! Futures run side by side, their outputs collected in order. futures-util's `join_all` and
//! `try_join_all` switch to `FuturesOrdered` past 30 futures, and so compile its task queue, binary
//! heap and their drop glue for every future type they are given; the worker only ever runs a
//! handful of R2 reads or writes at once, so polling every pending future on each wake does as well.

use std::future::{poll_fn, Future};
use std::pin::Pin;
use std::task::Poll;

/// Every future's output, in the order given.
pub async fn join_all<F: Future>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output> {
    settle(futures, |_| false)
        .await
        .unwrap_or_else(|stopped| vec![stopped])
}

/// Every future's value in the order given, or the first error (the others are dropped then).
pub async fn try_join_all<T, E, F: Future<Output = Result<T, E>>>(
    futures: impl IntoIterator<Item = F>,
) -> Result<Vec<T>, E> {
    settle(futures, Result::is_err)
        .await
        .unwrap_or_else(|failed| vec![failed])
        .into_iter()
        .collect()
}

enum Slot<F: Future> {
    Pending(Pin<Box<F>>),
    Done(F::Output),
}

/// Polls the futures until all are done (`Ok` with their outputs) or one's output `stops` (`Err`
/// with it).
async fn settle<F: Future>(
    futures: impl IntoIterator<Item = F>,
    stops: impl Fn(&F::Output) -> bool,
) -> Result<Vec<F::Output>, F::Output> {
    let mut slots: Vec<Slot<F>> = futures
        .into_iter()
        .map(|f| Slot::Pending(Box::pin(f)))
        .collect();
    poll_fn(|cx| {
        let mut pending = false;
        for slot in slots.iter_mut() {
            let Slot::Pending(future) = slot else {
                continue;
            };
            match future.as_mut().poll(cx) {
                Poll::Ready(output) if stops(&output) => return Poll::Ready(Err(output)),
                Poll::Ready(output) => *slot = Slot::Done(output),
                Poll::Pending => pending = true,
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(Ok(()))
        }
    })
    .await?;
    Ok(slots
        .into_iter()
        .filter_map(|slot| {
            if let Slot::Done(output) = slot {
                Some(output)
            } else {
                None
            }
        })
        .collect())
}
