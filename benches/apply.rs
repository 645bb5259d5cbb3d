//! Criterion suite over the workloads W1–W11 (`cargo bench --bench apply`). The table of
//! ratios against the floor is `benches/table.rs`; both share `benches/workloads.rs`.

use criterion::{criterion_group, criterion_main, Criterion};

#[path = "support/workloads.rs"]
mod workloads;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("v4a");
    group.sample_size(10);
    for w in workloads::all(1) {
        group.bench_function(format!("{} {}", w.id, w.what), |b| b.iter(|| (w.run)()));
        group.bench_function(format!("{} floor", w.id), |b| {
            b.iter(|| workloads::floor(&w.floor_input))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
