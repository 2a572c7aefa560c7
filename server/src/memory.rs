//! Running out of memory is an error like any other: a clear message and
//! exit status 2, not the abort (status 134, "memory allocation of N bytes
//! failed") that Rust makes of a failed allocation.
//!
//! The binary's allocator is the system's, wrapped: an allocation that
//! fails (a `ulimit -v`, a container's memory limit) writes one line to
//! standard error and ends the process with status 2 at once. Nothing is
//! left half written by that: a file is replaced whole or not at all
//! (`cli::write`), so each file is as it was or as fixed. The one `unsafe`
//! of the project: an allocator can only be written with it.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

/// The system allocator, ending the process with status 2 when it fails.
#[derive(Debug)]
pub struct ExitOnFailure;

// SAFETY: every method hands the call to the system allocator unchanged;
// only a null result (a failure) is acted on, and it never returns then.
unsafe impl GlobalAlloc for ExitOnFailure {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract is passed on as it is.
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            out_of_memory(layout.size());
        }
        p
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as `alloc`.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            out_of_memory(new_size);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// Says that memory ran out and ends the process with status 2, without
/// allocating: the line is written from the stack, and the process ends
/// without running anything more (no destructor, no flush that could wait
/// on a lock another thread holds while it waits for memory).
fn out_of_memory(size: usize) -> ! {
    let mut line = [0u8; 256];
    let mut cursor = std::io::Cursor::new(&mut line[..]);
    let _ = writeln!(
        cursor,
        "error: out of memory: {size} bytes could not be allocated (is a memory limit set, \
         `ulimit -v` or a container's?); stopped with nothing half written"
    );
    let end = usize::try_from(cursor.position()).unwrap_or(0);
    let _ = std::io::stderr().write_all(&line[..end]);
    // SAFETY: `_exit` ends the process at once; it takes no pointer.
    unsafe { libc::_exit(2) }
}
