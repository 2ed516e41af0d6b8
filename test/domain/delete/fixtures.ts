// What the delete tests share: a finished task.
// Shapes as GET _tasks/<id> answered on the real 8.19.21 node with the ported module.
export const finished = {
  completed: true,
  task: {
    node: 'n',
    id: 42,
    action: 'indices:data/write/delete/byquery',
    status: { total: 10, deleted: 10, batches: 1, version_conflicts: 0, throttled_millis: 0, requests_per_second: -1 },
    description: 'delete-by-query [v]',
    running_time_in_nanos: 464822126,
    cancelled: false,
  },
  response: { total: 10, deleted: 10, batches: 1, version_conflicts: 0, throttled_millis: 0, requests_per_second: -1, failures: [] },
};
