//! Package pages from metadata, registration, listing projects and the README.

mod common;

use jengine::host::PackageMeta;
use jengine_counter::CounterPackage;

#[test]
fn a_package_page_lists_its_surface() {
    let root = common::workspace();
    let meta = PackageMeta::read(&root.join("tools/fixtures/counter-package")).unwrap();
    let page = jengine_tool::docs::page(&root, &meta, &CounterPackage);
    for part in [
        "# jengine-counter",
        "| Entry point | `jengine_counter::CounterPackage` |",
        "| Script namespace | `Counter` |",
        "| Depends on | nothing |",
        "| `counter` | `Counter` | package only: needs a v2 scene |",
        "| `Counter.add(e: entity, n: integer)` | `counter_add` |",
        "| `Counter.reset(e: entity)` | `counter_reset` |",
        "| `data/counter_goals` | `Goal` |",
        "if Counter == nil then return end",
    ] {
        assert!(page.contains(part), "missing {part:?} in\n{page}");
    }
}
