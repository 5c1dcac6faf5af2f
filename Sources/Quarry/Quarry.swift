// The umbrella module most embedders import.
@_exported import QuarryCore
@_exported import QuarryData
@_exported import QuarryTranslation
@_exported import QuarrySQL
@_exported import QuarryPredicate
@_exported import QuarryParseREST
@_exported import QuarryEngine
