//! What a value owns on the heap, counted from its vectors' capacities: the lab's history
//! keeps its snapshots within a memory budget by these counts, and a test checks them
//! against the bytes an allocator really hands out.

/// The bytes a vector's buffer holds (its capacity, not its length).
pub fn vec_bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}
