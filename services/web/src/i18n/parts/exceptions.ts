/** Catalog keys of the exception ledger's decisions (approve, reject with a reason): add each key to both objects. */
export const en = {
  'exception.approve': 'Approve',
  'exception.reject': 'Reject',
  'exception.approveRow': 'Approve the exception of {agent}',
  'exception.rejectRow': 'Reject the exception of {agent}',
  'exception.approveQuestion': 'Approve this exception of {amount} won for {agent}? It counts in the settlement from the next run.',
  'exception.approved': 'Exception of {agent} approved',
  'exception.approveFailed': 'The exception was not approved: {error}',
  'exception.rejectTitle': 'Reject the exception of {agent}',
  'exception.rejectOf': '{name} of {amount} won, registered because: {reason}',
  'exception.rejectReason': 'Reason for the rejection',
  'exception.rejectReasonMissing': 'Say why the exception is rejected',
  'exception.rejected': 'Exception of {agent} rejected',
  'exception.rejectFailed': 'The exception was not rejected: {error}',
} as const;

export const ko: Record<keyof typeof en, string> = {
  'exception.approve': '승인',
  'exception.reject': '반려',
  'exception.approveRow': '{agent} 예외 승인',
  'exception.rejectRow': '{agent} 예외 반려',
  'exception.approveQuestion': '{agent}의 예외 {amount}원을 승인할까요? 다음 정산 실행부터 반영됩니다.',
  'exception.approved': '{agent}의 예외를 승인했습니다',
  'exception.approveFailed': '예외를 승인하지 못했습니다: {error}',
  'exception.rejectTitle': '{agent} 예외 반려',
  'exception.rejectOf': '{name} {amount}원, 등록 사유: {reason}',
  'exception.rejectReason': '반려 사유',
  'exception.rejectReasonMissing': '반려 사유를 입력하세요',
  'exception.rejected': '{agent}의 예외를 반려했습니다',
  'exception.rejectFailed': '예외를 반려하지 못했습니다: {error}',
};
