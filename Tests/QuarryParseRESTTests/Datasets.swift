import QuarryCore
import QuarryEngine

// The data sets of the Parse (seed-parse-queries.md §18) and LeanCloud / MaxLeap
// (seed-leancloud-maxleap-queries.md §9) reference test cases.

func rec(_ id: String, _ fields: KeyValuePairs<String, Value>) -> Record {
    Record(objectId: id, fields: fields.map { ($0.key, $0.value) })
}

func db(_ classes: [String: [Record]]) -> Database {
    Database(classes.sorted { $0.key < $1.key }.map { ClassData(name: $0.key, records: $0.value) })
}

func pointer(_ c: String, _ id: String) -> Value { .pointer(Pointer(className: c, objectId: id)) }
func point(_ lat: Double, _ lon: Double) -> Value { .geoPoint(GeoPoint(latitude: lat, longitude: lon)) }

/// Milliseconds of an ISO date-time, for readable fixtures.
func iso(_ text: String) -> Value { .date(ISODate.parse(text)!) }

enum Datasets {
    /// Dataset PC — Post and Comment.
    static let postsAndComments = db([
        "Post": [
            rec("p1", ["title": "I'm Hungry", "image": .file(FileRef(name: "a.png"))]),
            rec("p2", ["title": "No pic"]),
            rec(
                "1zEcyElZ80",
                ["image": .file(FileRef(name: "b.png")), "author": pointer("_User", "Au1"), "title": "Third"]),
        ],
        "_User": [rec("Au1", ["username": "au1"])],
        "Comment": [
            rec("c1", ["post": pointer("Post", "p1"), "createdAt": .date(1)]),
            rec("c2", ["post": pointer("Post", "p1"), "createdAt": .date(2)]),
            rec("c3", ["post": pointer("Post", "p2"), "createdAt": .date(3)]),
            rec("c4", ["post": pointer("Post", "1zEcyElZ80"), "createdAt": .date(4)]),
            rec("c5", ["createdAt": .date(5)]),
        ],
    ])

    /// 150 posts with images, each with one comment (T39, TC-41).
    static let manyPosts = db([
        "Post": (1...150).map { rec("pa\($0)", ["image": .file(FileRef(name: "i\($0).png")), "n": .int(Int64($0))]) },
        "Comment": (1...150).map { rec("ca\($0)", ["post": pointer("Post", "pa\($0)")]) },
    ])

    /// n = 0..<count, in order.
    static func bulk(_ count: Int) -> Database {
        db(["Bulk": (0..<count).map { rec("n\($0)", ["n": .int(Int64($0))]) }])
    }

    static let teams = db([
        "Team": [
            rec("t1", ["city": "San Francisco", "winPct": 0.6]), rec("t2", ["city": "Oakland", "winPct": 0.4]),
            rec("t3", ["city": "Boston", "winPct": 0.55]),
        ],
        "_User": [
            rec("u1", ["hometown": "San Francisco"]), rec("u2", ["hometown": "Oakland"]),
            rec("u3", ["hometown": "Boston"]), rec("u4", ["hometown": "Denver"]),
        ],
    ])

    static let players = db([
        "Player": [
            rec("p1", ["wins": 200, "team": "A"]), rec("p2", ["wins": 3, "team": "A"]),
            rec("p3", ["wins": 100, "team": "A"]),
            rec("p4", ["wins": 150, "team": "B"]), rec("p5", ["wins": 5, "team": "B"]),
        ]
    ])

    static let weapons = db([
        "Weapon": ["scimitar", "plasmaRifle", "grenade", "bunnyRabbit"].map { rec($0, ["name": .string($0)]) },
        "_User": [
            rec(
                "uA",
                [
                    "weaponsList": [
                        pointer("Weapon", "scimitar"), pointer("Weapon", "plasmaRifle"),
                        pointer("Weapon", "grenade"), pointer("Weapon", "bunnyRabbit"),
                    ]
                ]),
            rec("uB", ["weaponsList": [pointer("Weapon", "grenade")]]),
            rec("uC", ["weaponsList": []]),
        ],
    ])

    static let books = db([
        "Author": [rec("A1", ["name": "a1"]), rec("A2", ["name": "a2"]), rec("A3", ["name": "a3"])],
        "Book": [
            rec("bk1", ["authors": .relation(className: "Author", objectIds: ["A1", "A2", "A3"])]),
            rec("bk2", ["authors": .relation(className: "Author", objectIds: ["A2"])]),
        ],
        "Follow": [
            rec("f1", ["from": pointer("_User", "U1"), "to": pointer("_User", "U2")]),
            rec("f2", ["from": pointer("_User", "U3"), "to": pointer("_User", "U1")]),
        ],
        "_User": [
            rec("U1", ["likes": .relation(className: "Post", objectIds: ["lp1", "lp2", "lp3"])]),
            rec("U2", [:]), rec("U3", [:]),
        ],
        "Post": [
            rec("lp1", ["title": "A"]), rec("lp2", ["title": "X"]), rec("lp3", ["title": "B"]),
            rec("lp4", ["title": "X"]),
        ],
    ])

    static let places = db([
        "PlaceObject": [
            rec("P1", ["location": point(37.7793, -122.4193), "name": "Zeta"]),
            rec("P2", ["location": point(37.8044, -122.2712), "name": "Alpha"]),
            rec("P3", ["location": point(37.3382, -121.8863), "name": "Mid"]),
            rec("P4", ["location": point(38.5816, -121.4944), "name": "Beta"]),
            rec("P5", ["location": point(34.0522, -118.2437), "name": "Omega"]),
        ]
    ])

    static let pizza = db([
        "PizzaPlaceObject": [
            rec("Z1", ["location": point(37.7749, -122.4194)]), rec("Z2", ["location": point(37.8044, -122.2712)]),
            rec("Z3", ["location": point(37.70, -122.45)]), rec("pz3", ["location": point(37.80, -122.41)]),
        ]
    ])

    /// Dataset INST with the users of T64 (u1 0.5 mi from the stadium, u2 5 mi).
    static let stadium = GeoPoint(latitude: 37.7786, longitude: -122.3893)
    static let installations = db([
        "_Installation": [
            rec(
                "i1",
                [
                    "channels": ["Giants"], "scores": true, "injuryReports": true, "deviceType": "ios",
                    "city": "San Francisco", "user": pointer("_User", "u1"),
                ]),
            rec(
                "i2",
                [
                    "channels": ["Giants", "Mets"], "scores": false, "injuryReports": false, "deviceType": "android",
                    "city": "San Francisco", "user": pointer("_User", "u2"),
                ]),
            rec(
                "i3",
                [
                    "channels": ["Mets"], "scores": true, "injuryReports": false, "deviceType": "winphone",
                    "city": "Oakland",
                ]),
            rec("i4", ["channels": ["suitcaseOwners"], "deviceType": "winrt"]),
        ],
        "_User": [
            rec("u1", ["location": point(37.7786, -122.3893 + 0.0091)]),
            rec("u2", ["location": point(37.7786 + 0.0724, -122.3893)]),
        ],
    ])

    /// LeanCloud DS-STU.
    static let students = db([
        "Student": [
            rec("s1", ["firstName": "John", "lastName": "Smith", "age": 17]),
            rec("s2", ["firstName": "Jack", "lastName": "Smith", "age": 18]),
            rec("s3", ["firstName": "Jane", "lastName": "Doe", "age": 19]),
            rec("s4", ["firstName": "Jack", "lastName": "Doe", "age": 25]),
            rec("s5", ["firstName": "Ann", "lastName": "Lee"]),
        ]
    ])

    /// LeanCloud DS-TODO, plus t6 for TC-16.
    static let todos = db([
        "Todo": [
            rec(
                "t1",
                [
                    "title": "lunch with Linda", "priority": 1, "isComplete": true,
                    "tags": ["work", "sales", "appointment"],
                    "images": ["a.png"], "location": point(39.91, 116.41), "createdAt": iso("2016-11-14T09:00:00.000Z"),
                ]),
            rec(
                "t2",
                [
                    "title": "Lunch at KFC", "priority": 2, "isComplete": false, "tags": ["work", "sales"],
                    "location": point(39.95, 116.45), "createdAt": iso("2016-11-20T09:00:00.000Z"),
                ]),
            rec(
                "t3",
                [
                    "title": "Team lunch", "priority": 3, "isComplete": false, "tags": ["personal"],
                    "location": point(40.50, 117.00), "createdAt": iso("2016-12-02T12:00:00.000Z"),
                ]),
            rec(
                "t4",
                [
                    "title": "Buy ticket for concert", "priority": 4, "isComplete": true,
                    "tags": ["work", "sales", "appointment", "urgent"], "location": point(31.23, 121.47),
                    "createdAt": iso("2016-12-05T09:00:00.000Z"),
                ]),
            rec(
                "t5",
                [
                    "title": "Sign up for Marathon", "priority": 2, "isComplete": false,
                    "createdAt": iso("2016-11-10T09:00:00.000Z"),
                ]),
        ]
    ])

    static var todosWithT6: Database {
        var d = todos
        d.insert(rec("t6", ["title": "l.nch plan", "createdAt": iso("2016-12-06T09:00:00.000Z")]), into: "Todo")
        return d
    }

    /// LeanCloud DS-BLOG.
    static let blog = db([
        "_User": [rec("u1", ["firstName": "Tom", "lastName": "Smith"]), rec("u2", ["firstName": "Jerry"])],
        "Post": [
            rec(
                "57328ca079bc44005c2472d0",
                ["title": "I am starving!", "images": ["x.jpg"], "author": pointer("_User", "u1")]),
            rec("p2", ["title": "Hmmm, where should I go for lunch?", "author": pointer("_User", "u2")]),
        ],
        "Comment": [
            rec(
                "c1",
                [
                    "content": "KFC is the best!", "post": pointer("Post", "57328ca079bc44005c2472d0"),
                    "createdAt": .date(1),
                ]),
            rec("c2", ["content": "+1", "post": pointer("Post", "57328ca079bc44005c2472d0"), "createdAt": .date(2)]),
            rec("c3", ["content": "Sushi", "post": pointer("Post", "p2"), "createdAt": .date(3)]),
            rec("c4", ["content": "orphan", "createdAt": .date(4)]),
        ],
    ])

    /// MaxLeap DS-MLPOST, dated relative to `now`.
    static func maxLeapPosts(now: Int64) -> Database {
        let minute: Int64 = 60_000
        return db([
            "Post": [
                rec(
                    "m1",
                    [
                        "publisher": "MaxLeap", "title": "Big Daddy's", "readCount": 5, "wins": 49, "image": "a.png",
                        "arrayKey": [2, 3, 4], "playerEmail": "xiaoming@example.com", "playerName": "Sean Plott",
                        "createdAt": .date(now - 10 * minute),
                    ]),
                rec(
                    "m2",
                    [
                        "publisher": "xiaoming", "title": "Big Daddy's BBQ", "readCount": 10, "wins": 50,
                        "arrayKey": [1, 2],
                        "createdAt": .date(now - 120 * minute),
                    ]),
                rec(
                    "m3",
                    [
                        "publisher": "Jonathan Walsh", "title": "big daddy's", "readCount": 101, "wins": 51,
                        "arrayKey": [2, 3, 4, 5], "createdAt": .date(now - 5 * minute),
                    ]),
                rec(
                    "m4",
                    [
                        "publisher": "Dario Wunsch", "title": "BBQ Sauce: Big Daddy's", "readCount": 100,
                        "createdAt": .date(now - 30 * minute),
                    ]),
                rec(
                    "m5",
                    [
                        "publisher": "Sean", "title": "Go We", "readCount": 50, "playerName": "Shawn Simon",
                        "createdAt": .date(now - minute),
                    ]),
            ]
        ])
    }

    /// MaxLeap DS-MLREL.
    static let maxLeapRelations = db([
        "_User": [
            rec("U1", ["likes": .relation(className: "Post", objectIds: ["1zEcyElZ80", "mp3"])]), rec("U2", [:]),
            rec("U3", [:]),
        ],
        "Post": [
            rec("1zEcyElZ80", ["title": "I'm Hungry", "image": "i.png", "author": pointer("_User", "U1")]),
            rec("mp2", ["title": "Where should we go for lunch?", "author": pointer("_User", "U2")]),
            rec("mp3", ["title": "Go We", "author": pointer("_User", "U1")]),
        ],
        "Comment": [
            rec(
                "mc1",
                [
                    "content": "Let's do Sushirrito.", "parent": pointer("Post", "1zEcyElZ80"),
                    "post": pointer("Post", "1zEcyElZ80"), "author": pointer("_User", "U1"),
                ]),
            rec(
                "mc2",
                [
                    "content": "Pizza", "parent": pointer("Post", "mp2"), "post": pointer("Post", "mp2"),
                    "author": pointer("_User", "U3"),
                ]),
        ],
    ])
}
