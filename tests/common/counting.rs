//! An allocator that counts, for the test binaries that install it as their global one
//! (`#[global_allocator] static GLOBAL: Counting = Counting;`): the bytes it holds and
//! the allocations it makes, on every thread.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, counted.
pub struct Counting;

/// Bytes allocated and not yet freed.
static HELD: AtomicUsize = AtomicUsize::new(0);
/// Allocations and reallocations made.
static CALLS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        HELD.fetch_add(layout.size(), Ordering::SeqCst);
        CALLS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        HELD.fetch_sub(layout.size(), Ordering::SeqCst);
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
        HELD.fetch_add(new, Ordering::SeqCst);
        HELD.fetch_sub(layout.size(), Ordering::SeqCst);
        CALLS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new) }
    }
}

/// Bytes allocated and still held now.
pub fn held() -> usize {
    HELD.load(Ordering::SeqCst)
}

/// Allocations and reallocations so far.
pub fn calls() -> usize {
    CALLS.load(Ordering::SeqCst)
}
