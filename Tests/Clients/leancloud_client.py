"""The LeanCloud Python SDK against a live `quarry serve` (LEANCLOUD_API_SERVER): save,
query with the SDK's constraints, update with its operators, delete."""
import os
import sys

import leancloud

leancloud.init(os.environ["QUARRY_APP_ID"], app_key=os.environ["QUARRY_REST_KEY"])
Todo = leancloud.Object.extend("Todo")
failures = []


def check(name, got, want):
    if got != want:
        failures.append(f"{name}: got {got!r}, want {want!r}")


saved = []
for title, priority, tags in [("write", 1, ["a", "b"]), ("read", 2, ["b"]), ("relax", 3, []), ("run", 4, ["a"])]:
    todo = Todo()
    todo.set("title", title)
    todo.set("priority", priority)
    todo.set("tags", tags)
    todo.save()
    check("objectId after save", len(todo.id), 10)
    saved.append(todo)


def titles(query):
    return [o.get("title") for o in query.find()]


def q():
    return leancloud.Query(Todo).add_ascending("priority")


check("equal_to", titles(q().equal_to("title", "read")), ["read"])
check("not_equal_to", titles(q().not_equal_to("title", "read")), ["write", "relax", "run"])
check("greater_than", titles(q().greater_than("priority", 2)), ["relax", "run"])
check("less_than_or_equal_to", titles(q().less_than_or_equal_to("priority", 2)), ["write", "read"])
check("contained_in", titles(q().contained_in("title", ["run", "read"])), ["read", "run"])
check("not_contained_in", titles(q().not_contained_in("title", ["run", "read"])), ["write", "relax"])
check("contains_all", titles(q().contains_all("tags", ["a", "b"])), ["write"])
check("exists", titles(q().exists("title").limit(2)), ["write", "read"])
check("startswith", titles(q().startswith("title", "r")), ["read", "relax", "run"])
check("contains", titles(q().contains("title", "la")), ["relax"])
check("matched", titles(q().matched("title", "^w.*e$")), ["write"])
check("or", titles(leancloud.Query.or_(q().equal_to("priority", 1), q().equal_to("priority", 4)).add_ascending("priority")),
      ["write", "run"])
check("and", titles(leancloud.Query.and_(q().greater_than("priority", 1), q().less_than("priority", 4)).add_ascending("priority")),
      ["read", "relax"])
check("descending skip limit", titles(leancloud.Query(Todo).add_descending("priority").skip(1).limit(2)), ["relax", "read"])
check("count", q().greater_than("priority", 1).count(), 3)
check("select", sorted(q().select("title").first().dump().keys() - {"createdAt", "updatedAt", "objectId", "__type", "className"}),
      ["title"])
inner = leancloud.Query(Todo).equal_to("title", "run")
check("matches_query", titles(q().matches_query("title", inner)), [])
check("matches_key_in_query", titles(q().matches_key_in_query("title", "title", inner)), ["run"])

first = saved[0]
first.increment("priority", 10)
first.add("tags", "c")
first.save()
fetched = leancloud.Query(Todo).get(first.id)
check("increment", fetched.get("priority"), 11)
check("add", fetched.get("tags"), ["a", "b", "c"])
fetched.set("title", "written")
fetched.save()
check("update", leancloud.Query(Todo).get(first.id).get("title"), "written")

saved[1].destroy()
check("destroy", q().count(), 3)

if failures:
    print("\n".join(failures))
    print(f"leancloud: {len(failures)} failed")
    sys.exit(1)
print("leancloud: all checks passed")
