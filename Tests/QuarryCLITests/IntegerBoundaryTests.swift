import Quarry
import Testing

/// Every integer a client controls, at the integer boundaries, in every dialect, every
/// profile and the library API: each ends with an answer or a diagnostic. A trap (an
/// arithmetic overflow, a bad conversion) kills the test process, which fails the suite.
@Suite struct IntegerBoundaryTests {
    static let values: [String] = [
        "9223372036854775807", "-9223372036854775808", "2147483648", "4294967296",
        "9007199254740991", "9007199254740993", "-1", "0",
    ]

    static let data = """
        {"Thing": [
          {"objectId": "t1", "n": 5, "tags": ["a", "b"], "at": {"__type": "Date", "iso": "2020-01-01T00:00:00Z"},
           "where": {"__type": "GeoPoint", "latitude": 10, "longitude": 20},
           "owner": {"__type": "Pointer", "className": "Owner", "objectId": "o1"}},
          {"objectId": "t2", "n": -3, "tags": [], "at": {"__type": "Date", "iso": "1969-12-31T23:59:59Z"}}
        ],
        "Owner": [{"objectId": "o1", "n": 1}]}
        """

    /// Query templates; `N` is replaced by each boundary value.
    static let templates: [Dialect: [String]] = [
        .sql: [
            "n > N", "n = N", "n IN (N, 1, N)", "n BETWEEN N AND N", "at > N", "at AFTER N",
            "distance(N, N, where.latitude, where.longitude) < km(N)",
            "distance(1, 2, where.latitude, where.longitude) < mi(N)",
            "Within(where, 'POLYGON((N N, 1 1, 2 2, N N))') = TRUE",
            "owner IN (Owner[n > N].objectId)", "n > N AND n < N OR NOT n = N",
        ],
        .predicate: [
            "n > N", "n + N > 1", "n - N > 1", "N - n > 1", "n * N > 1", "n / N > 1", "n ** N > 1", "-N > n",
            "tags[N] == 'a'", "tags[SIZE] == N", "tags[FIRST] == N", "tags[LAST] == N", "tags.@count == N",
            "tags.@sum == N", "n IN {N, 1}", "n BETWEEN {N, N}", "CAST(N, 'NSDate') < at",
            "at > CAST(N, 'NSDate')", "CAST('N', 'NSNumber') == n", "FUNCTION(n, 'modulus:by:', N) == 0",
            "modulus:by:(n, N) == 0", "abs:(N) > n", "SUBQUERY(tags, $t, $t == N).@count == N",
            "random() * N > 0", "n == N * N", "n == N + N", "n == -N - N",
        ],
        .json: [
            #"{"n":{"$gt":N}}"#, #"{"n":N}"#, #"{"n":{"$in":[N,1]}}"#, #"{"tags":{"$size":N}}"#,
            #"{"where":{},"limit":N,"skip":N}"#, #"{"where":{},"limit":N,"skip":1}"#,
            #"{"where":{},"skip":N}"#, #"{"where":{},"limit":N,"order":"n"}"#,
            #"{"where":{},"limit":N,"skip":N,"order":"-n","count":1}"#,
            #"{"owner":{"$inQuery":{"className":"Owner","where":{},"limit":N,"skip":N}}}"#,
            #"{"owner":{"$notInQuery":{"className":"Owner","where":{},"limit":N,"skip":1}}}"#,
            #"{"n":{"$select":{"query":{"className":"Owner","where":{},"limit":N,"skip":N},"key":"n"}}}"#,
            #"{"at":{"$lt":{"$relativeTime":"N days ago"}}}"#, #"{"at":{"$gt":{"$relativeTime":"in N years"}}}"#,
            #"{"at":{"$gt":{"$relativeTime":"in N seconds"}}}"#,
            #"{"at":{"$gt":{"__type":"Date","iso":"N-01-01T00:00:00Z"}}}"#,
            #"{"where":{"$nearSphere":{"__type":"GeoPoint","latitude":0,"longitude":0},"$maxDistanceInKilometers":N}}"#,
            #"{"where":{"$nearSphere":{"__type":"GeoPoint","latitude":N,"longitude":N}}}"#,
            #"{"where":{"$geoWithin":{"$centerSphere":[[0,0],N]}}}"#,
            #"{"where":{"$within":{"$box":[{"__type":"GeoPoint","latitude":N,"longitude":N},{"__type":"GeoPoint","latitude":1,"longitude":1}]}}}"#,
            #"{"where":{"$geoWithin":{"$polygon":[[N,N],[1,1],[2,2]]}}}"#,
        ],
    ]

    /// Through the library (compile, check, engine, reference, explain --analyze): the CLI
    /// adds only the paging options, swept below.
    @Test(arguments: Dialect.allCases)
    func everyPositionOfEveryDialect(_ dialect: Dialect) throws {
        let fixture = try DataFixture(Self.data)
        let database = try Database(contentsOfFile: fixture.path)
        let engine = Engine(database: database)
        let reference = ReferenceEvaluator(database: database)
        for template in Self.templates[dialect] ?? [] {
            for n in Self.values {
                let text = template.replacingOccurrences(of: "N", with: n)
                guard
                    let query = try? dialect.compile(
                        text, className: "Thing", options: CompileOptions(schema: database))
                else { continue }
                _ = try? QueryCheck.check(query, schema: database, variables: [])
                let fromEngine = Result { () throws(Diagnostic) in try engine.run(query) }
                let fromReference = Result { () throws(Diagnostic) in try reference.run(query) }
                #expect(fromEngine == fromReference, "\(text)")
                _ = try? engine.explain(query, analyze: true)
            }
        }
    }

    @Test(arguments: Profile.allCases)
    func pagingOptionsInEveryProfile(_ profile: Profile) throws {
        let fixture = try DataFixture(Self.data)
        for n in Self.values {
            for m in ["1", n] {
                for order in [[], ["--order", "-n"]] {
                    let r = quarry(
                        [
                            "run", "--profile", profile.rawValue, "--data", fixture.path, "--class", "Thing",
                            "--skip", n, "--limit", m,
                        ] + order + ["--ids", "--", "n > -100"])
                    let negative = n.hasPrefix("-") || m.hasPrefix("-")
                    #expect(r.status == (negative ? 2 : 0), "--skip \(n) --limit \(m): \(r.err)")
                }
            }
            let body = #"{"where":{},"limit":N,"skip":N}"#.replacingOccurrences(of: "N", with: n)
            for command in [["run", "--count"], ["explain", "--analyze"]] {
                let r = quarry(
                    command + [
                        "--profile", profile.rawValue, "--dialect", "json", "--data", fixture.path,
                        "--class", "Thing", "--", body,
                    ])
                // The compatibility profiles cap skip and limit (a located error); `exact` does not.
                if profile == .exact {
                    #expect(r.status == (n.hasPrefix("-") ? 1 : 0), "\(command) \(body): \(r.err)")
                } else {
                    #expect(r.status == 0 || (r.status == 1 && r.err.contains(" --> ")), "\(command) \(body): \(r.err)")
                }
            }
        }
    }

    @Test func libraryPaging() throws {
        let fixture = try DataFixture(Self.data)
        let database = try Database(contentsOfFile: fixture.path)
        let engine = Engine(database: database)
        let reference = ReferenceEvaluator(database: database)
        for n in Self.values.compactMap(Int.init) {
            for (skip, limit) in [(n, n), (1, n), (n, 1), (n, nil), (nil, n)] as [(Int?, Int?)] {
                for order in [[], [SortKey.key(FieldPath("n"), .descending)]] {
                    for profile in Profile.allCases {
                        let query = Query(className: "Thing", order: order, skip: skip, limit: limit, profile: profile)
                        let fromEngine = Result { () throws(Diagnostic) in try engine.run(query) }
                        let fromReference = Result { () throws(Diagnostic) in try reference.run(query) }
                        #expect(
                            fromEngine == fromReference,
                            "skip \(String(describing: skip)) limit \(String(describing: limit))")
                        let inner = Query(className: "Owner", skip: skip, limit: limit, profile: profile)
                        let outer = Query(
                            className: "Thing", predicate: .leaf(.inQuery(FieldPath("owner"), inner), .document))
                        #expect(
                            Result { () throws(Diagnostic) in try engine.run(outer) }
                                == Result { () throws(Diagnostic) in try reference.run(outer) })
                        _ = try? engine.explain(query, analyze: true)
                    }
                }
            }
            let built = QueryBuilder("Thing").limit(n).skip(n)
            _ = try? built.find(in: database)
            _ = try? built.count(in: database)
        }
    }
}
