"""qs-parse-rest against a live `quarry serve` (PARSE_API_ROOT): save, query, update, delete."""
import os
import sys

from parse_rest.connection import register
from parse_rest.datatypes import GeoPoint, Object

register(os.environ["QUARRY_APP_ID"], os.environ["QUARRY_REST_KEY"])


class GameScore(Object):
    pass


class Player(Object):
    pass


failures = []


def check(name, got, want):
    if got != want:
        failures.append(f"{name}: got {got!r}, want {want!r}")


scores = []
for name, score in [("ann", 10), ("bob", 20), ("cy", 30), ("dee", 40)]:
    s = GameScore(player_name=name, score=score, cheat_mode=False)
    s.save()
    check("objectId after save", len(s.objectId), 10)
    scores.append(s)


def names(query):
    return [s.player_name for s in query]


check("all ordered", names(GameScore.Query.all().order_by("score")), ["ann", "bob", "cy", "dee"])
check("gte", names(GameScore.Query.filter(score__gte=30).order_by("score")), ["cy", "dee"])
check("lt", names(GameScore.Query.filter(score__lt=20)), ["ann"])
check("ne", names(GameScore.Query.filter(player_name__ne="ann").order_by("score")), ["bob", "cy", "dee"])
check("in", names(GameScore.Query.filter(player_name__in=["cy", "ann"]).order_by("score")), ["ann", "cy"])
check("nin", names(GameScore.Query.filter(player_name__nin=["cy", "ann"]).order_by("score")), ["bob", "dee"])
check("exists", names(GameScore.Query.filter(score__exists=True).order_by("-score").limit(1)), ["dee"])
check("descending skip limit", names(GameScore.Query.all().order_by("-score").skip(1).limit(2)), ["cy", "bob"])
check("equality", names(GameScore.Query.filter(player_name="bob")), ["bob"])
check("count", GameScore.Query.filter(score__gt=15).count(), 3)
check("get", GameScore.Query.get(objectId=scores[0].objectId).player_name, "ann")

# include (select_related), $select / $dontSelect and $nearSphere, on players the scores point to.
players = {}
for name, team, lat, lng in [("ann", "red", 48.8566, 2.3522), ("bob", "blue", 51.5074, -0.1278),
                             ("cy", "red", 40.7128, -74.006), ("dee", "blue", 51.752, -1.2577)]:
    p = Player(name=name, team=team, home=GeoPoint(lat, lng))
    p.save()
    players[name] = p
for s in scores[:3]:
    s.player = players[s.player_name]
    s.save()
included = GameScore.Query.filter(score__lte=30).order_by("score").select_related("player")
check("include", [(s.player_name, s.player.team) for s in included], [("ann", "red"), ("bob", "blue"), ("cy", "red")])
red = {"query": {"className": "Player", "where": {"team": "red"}}, "key": "name"}
check("select", names(GameScore.Query.filter(player_name__select=red).order_by("score")), ["ann", "cy"])
check("dontSelect", names(GameScore.Query.filter(player_name__dontSelect=red).order_by("score")), ["bob", "dee"])
# Nearest first, and (hosted Parse's rule, the parse profile's) within 100 miles: London (60 km)
# and Oxford (120 km), not Paris (330 km) or New York.
near = Player.Query.filter(home__nearSphere=GeoPoint(51.0, 0.0))
check("nearSphere", [p.name for p in near], ["bob", "dee"])
keyed = GameScore.Query.all().keys("score").order_by("score").limit(1)[0]
check("keys", (keyed.score, keyed.createdAt is not None, getattr(keyed, "player_name", None)), (10, True, None))

first = scores[0]
first.score = 15
first.save()
check("update", GameScore.Query.get(objectId=first.objectId).score, 15)
first.increment("score")
check("increment", GameScore.Query.get(objectId=first.objectId).score, 16)
scores[1].delete()
check("delete", GameScore.Query.all().count(), 3)

if failures:
    print("\n".join(failures))
    print(f"parse_rest: {len(failures)} failed")
    sys.exit(1)
print("parse_rest: all checks passed")
