extension DeviceRule {
    /// Every rule in the catalog, in its order (docs and tests check against it).
    public static let all: [DeviceRule] = [
        .authInitial, .authPrompt, .authStored, .authProvisional, .authProvisionalPrompt, .authProvisionalKeep,
        .authProvisionalSummary, .authProvisionalTurnOff, .authSettingsChanged, .authEphemeral, .authEphemeralExpired,
        .authEphemeralOverridden, .authUnrequestedOption, .authCritical, .authTimeSensitive, .levelWithoutEntitlement,
        .registrationIndependent, .registrationToken, .registrationNoEntitlement, .registrationOfflineFirst,
        .registrationRotation, .registrationReinstall, .registrationEnvironment, .tokenNotCurrent, .pushPayload,
        .pushTypeNotModelled, .pushIdentifier, .classifyAlert, .classifyBackground, .classifyAlertAndBackground,
        .classifyNothing, .unauthorizedSilent, .backgroundWake, .serviceExtensionRuns, .serviceExtensionModified,
        .serviceExtensionTimeLimit, .serviceExtensionNoAlertText, .serviceExtensionFiltered,
        .serviceExtensionHandlerOnce, .foregroundWillPresent, .foregroundNotImplemented, .foregroundNoDelegate,
        .presentSettings, .presentNotListed, .presentPassive, .focusSilenced, .focusBreakthrough, .summaryDelivery,
        .summaryOrder, .groupThread, .groupSummary, .levelCritical,
        .soundCriticalNotAllowed, .badgeRule,
        .categoriesReplace,
        .categoryIdentifiers, .categoryButtons, .actionDefault, .actionOptions, .actionTextInput, .actionDismiss,
        .actionNotHandled, .actionUnavailable, .localNotAllowed, .localTimeInterval, .localScheduled, .localReplace,
        .localPendingLimit, .localRemoved, .activityPushToStartToken, .activityStartByPush, .activityStartInvalid,
        .activityStartForeground, .activityUpdateToken, .activityPayload, .activityUpdate, .activityOrder,
        .activityEnded, .activityEnd, .activityDismissed, .activityStale, .activityLifetime, .activityBudget,
        .activityChannel, .activityBroadcast,
        .backgroundBudget, .backgroundNewestOnly, .backgroundFetchHandler, .backgroundFetchPenalty, .voipRegistry,
        .voipReportCall, .voipCutOff,
        .attachmentTypes, .attachmentURL, .localCalendar, .localCalendarZone, .localLocation,
        .localLocationAuthorization, .localLocationCrossing,
    ]
}
