// TEMPORARY until the front-ends and the engine land in main.
extension CheckCommand { func execute(_ console: Console) throws(Failure) { throw .usage("pending") } }
extension RunCommand { func execute(_ console: Console) throws(Failure) { throw .usage("pending") } }
extension TranslateCommand { func execute(_ console: Console) throws(Failure) { throw .usage("pending") } }
