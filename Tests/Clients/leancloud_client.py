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

check("does_not_match_key_in_query", titles(q().does_not_match_key_in_query("title", "title", inner)),
      ["write", "read", "relax"])

# Geo constraints and include, on places the todos point to.
Place = leancloud.Object.extend("Place")
places = {}
for name, lat, lng in [("Paris", 48.8566, 2.3522), ("London", 51.5074, -0.1278), ("New York", 40.7128, -74.006)]:
    place = Place()
    place.set("name", name)
    place.set("location", leancloud.GeoPoint(lat, lng))
    place.save()
    places[name] = place
paris = leancloud.GeoPoint(48.85, 2.35)


def place_names(query):
    return [o.get("name") for o in query.find()]


check("near", place_names(leancloud.Query(Place).near("location", paris)), ["Paris", "London", "New York"])
check("within_kilometers", place_names(leancloud.Query(Place).within_kilometers("location", paris, 500)),
      ["Paris", "London"])
check("within_kilometers min", place_names(leancloud.Query(Place).within_kilometers("location", paris, 10000, 100)),
      ["London", "New York"])
check("within_miles", place_names(leancloud.Query(Place).within_miles("location", paris, 10)), ["Paris"])
check("within_geo_box",
      sorted(place_names(leancloud.Query(Place).within_geo_box(
          "location", leancloud.GeoPoint(40, -10), leancloud.GeoPoint(55, 10)))),
      ["London", "Paris"])
saved[0].set("place", places["London"])
saved[0].save()
saved[3].set("place", places["Paris"])
saved[3].save()
with_place = leancloud.Query(Todo).exists("place").include("place").add_ascending("priority").find()
check("include", [(o.get("title"), o.get("place").get("name")) for o in with_place], [("write", "London"), ("run", "Paris")])
check("include location", with_place[1].get("place").get("location").latitude, 48.8566)
check("matches_query on a pointer",
      titles(q().matches_query("place", leancloud.Query(Place).equal_to("name", "Paris"))), ["run"])
check("does_not_match_query on a pointer",
      titles(q().exists("place").does_not_match_query("place", leancloud.Query(Place).equal_to("name", "Paris"))),
      ["write"])
check("select with include",
      sorted(leancloud.Query(Todo).equal_to("title", "run").include("place").select("place").first().dump().keys()
             - {"createdAt", "updatedAt", "objectId", "__type", "className"}),
      ["place"])

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
